package dev.openagent.server.view;

import dev.openagent.report.HtmlReport;

/**
 * Building the viewer's pages: text always goes in escaped (model output, tool results and ids are text, never
 * markup), and every page has the same head, style and navigation. Pages are self-contained: no file is fetched
 * from anywhere, the one script library (ECharts, for the results page) is inlined.
 */
final class Html {
    private final StringBuilder sb = new StringBuilder(8192);

    /** Starts a page with this title. */
    static Html page(String title) {
        Html h = new Html();
        h.sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><link rel=\"icon\" href=\"data:,\"><title>").append(esc(title))
                .append(" · openagent view</title><style>").append(STYLE).append("</style></head><body>")
                .append("<header><a class=\"home\" href=\"/\">openagent view</a></header><main><h1>").append(esc(title)).append("</h1>");
        return h;
    }

    /** Raw markup (the caller's own, never data). */
    Html raw(String markup) {
        sb.append(markup);
        return this;
    }

    /** Text, escaped. */
    Html text(String s) {
        sb.append(esc(s == null ? "" : s));
        return this;
    }

    /** An element holding escaped text: {@code tag(“td class="x"”, text)}. */
    Html el(String open, String text) {
        String name = open.split(" ", 2)[0];
        sb.append('<').append(open).append('>').append(esc(text == null ? "" : text)).append("</").append(name).append('>');
        return this;
    }

    /** A link with escaped text; {@code href} is built by the caller from escaped or encoded parts. */
    Html link(String href, String text) {
        sb.append("<a href=\"").append(esc(href)).append("\">").append(esc(text)).append("</a>");
        return this;
    }

    String end() {
        return sb.append("</main></body></html>\n").toString();
    }

    static String esc(String s) {
        return HtmlReport.escapeHtml(s).replace("'", "&#39;");
    }

    private static final String STYLE = """
            :root{--fg:#1d2330;--muted:#5d6679;--line:#dde2ea;--bg:#f6f7fa;--card:#fff;--ok:#1a9850;--bad:#d73027;--warn:#b8860b;--accent:#3b6fd8;--mark:#fff2a8}
            *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
            header{padding:10px 24px;background:var(--card);border-bottom:1px solid var(--line)}header a.home{font-weight:700;color:var(--fg);text-decoration:none}
            main{padding:8px 24px 40px;max-width:1600px}h1{font-size:20px;margin:10px 0}h2{font-size:16px;margin:0 0 8px}
            section{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin:12px 0}
            table{border-collapse:collapse;width:100%;font-size:13px}th,td{border-bottom:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}
            th{color:var(--muted);background:#fafbfc}td.n,th.n{text-align:right}.note{color:var(--muted);font-size:12.5px}
            .ok{color:var(--ok)}.bad{color:var(--bad)}.warn{color:var(--warn)}
            .badge{display:inline-block;padding:0 6px;border-radius:9px;font-size:11.5px;font-weight:600;background:#eef0f4;color:var(--muted)}
            .badge.ok{background:#e3f4e9;color:var(--ok)}.badge.bad{background:#fbe7e5;color:var(--bad)}.badge.warn{background:#fbf3dc;color:var(--warn)}
            .msg{margin:6px 0;padding:6px 10px;border-radius:6px;border:1px solid var(--line)}.msg .who{font-size:11px;font-weight:700;text-transform:uppercase;color:var(--muted)}
            .msg.user{background:#f3f6ff}.msg.tool{background:#f7faf6}.msg.tool.err{background:#fff3f2}
            pre{margin:0;white-space:pre-wrap;word-break:break-word;font:12.5px/1.4 ui-monospace,monospace}
            .call b{color:var(--accent)}form.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:end}form.filters label{font-size:12px;color:var(--muted);display:flex;flex-direction:column}
            .chart{width:100%;height:420px}.chart.curve{height:320px}h3{font-size:14px;margin:8px 0 0}.diff{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:10px}
            .changed{background:var(--mark)}tr.changed td{background:var(--mark)}.step{border:1px solid var(--line);border-radius:6px;margin:8px 0}
            .step>.head{padding:4px 10px;background:#fafbfc;font-weight:600}.step.diverged{border:2px solid var(--bad)}.step.diverged>.head{background:#fbe7e5;color:var(--bad)}
            .step .diff>div{padding:4px 8px}.bar{height:10px;background:#eef0f4;border-radius:5px;overflow:hidden;width:220px;display:inline-block;vertical-align:middle}
            .bar>span{display:block;height:100%;background:var(--accent)}
            """;
}
