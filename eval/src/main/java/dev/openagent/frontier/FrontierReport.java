package dev.openagent.frontier;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.report.HtmlReport;
import dev.openagent.report.Transcript;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.FrontierVerdicts;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A frontier as the user reads it: the text the command prints, and the files it writes into its directory:
 * {@code frontier.json} (what {@code --json} prints), {@code report.html} (a chart of the drop per shift and
 * severity, the tables, the example failing trajectories; self-contained), {@code failures.jsonl} (the example
 * trajectories, for {@code openagent show}) and {@code focus.json} (for {@code export --focus} and
 * {@code train --focus}).
 */
public final class FrontierReport {
    private FrontierReport() {}

    /** The files written. */
    public record Written(Path json, Path html, Path failures, Path focus) {}

    /** The JSON document: the frontier with who was searched, where it is stored and what this invocation ran. */
    public static ObjectNode json(FrontierRun.Result r, String agent, String store) {
        ObjectNode o = Json.object();
        o.put("agent", agent);
        o.put("run", r.runId());
        o.put("store", store);
        o.setAll(r.frontier().json());
        return o;
    }

    public static Written write(Path dir, FrontierRun.Result r, String agent, String store, List<EpisodeResult> examples) {
        Written w = new Written(dir.resolve("frontier.json"), dir.resolve("report.html"), dir.resolve("failures.jsonl"), dir.resolve("focus.json"));
        try {
            Files.createDirectories(dir);
            Files.writeString(w.json(), Json.pretty(json(r, agent, store)) + "\n", StandardCharsets.UTF_8);
            StringBuilder lines = new StringBuilder();
            for (EpisodeResult e : examples) lines.append(e.trajectory().toJson()).append('\n');
            Files.writeString(w.failures(), lines.toString(), StandardCharsets.UTF_8);
            Files.writeString(w.html(), html(r, agent, examples), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write the frontier to " + dir + ": " + e.getMessage(), e);
        }
        Focus.of(r.frontier(), agent).write(w.focus());
        return w;
    }

    // ---------------------------------------------------------------- text

    /** The frontier as the command prints it: per environment, per tier, each shift's verdict, drop, interval and episodes. */
    public static String text(FrontierRun.Result r, String agent) {
        Frontier f = r.frontier();
        StringBuilder sb = new StringBuilder();
        FrontierSearch.Settings s = f.settings();
        for (Frontier.Static st : f.statics()) {
            sb.append(String.format(Locale.ROOT, "frontier of %s on %s: breaks = success at least %.2f below static, at %.0f%% confidence%n",
                    agent, st.env(), s.drop(), 100 * s.confidence()));
            sb.append(String.format(Locale.ROOT, "static success %.3f over the %d tasks used%n", st.successRate(), st.tasks()));
            String tier = null;
            for (Frontier.ShiftResult x : f.shifts()) {
                if (!x.env().equals(st.env())) continue;
                if (!x.tier().equals(tier)) {
                    tier = x.tier();
                    sb.append(tier).append('\n');
                }
                Frontier.Test d = x.decisive();
                sb.append(String.format(Locale.ROOT, "  %-34s %-44s %s %5d episodes%n", x.shift(), x.describe() + estimated(x),
                        d == null ? String.format("%-30s", "") : String.format(Locale.ROOT, "drop %6.3f [%6.3f, %6.3f]", d.drop(), d.lower(), d.upper()),
                        x.episodes()));
            }
            List<Frontier.Test> tried = f.compositions().stream().filter(t -> t.env().equals(st.env())).toList();
            if (!tried.isEmpty()) {
                List<Frontier.Test> breaking = tried.stream().filter(Frontier.Test::breaks).toList();
                sb.append(String.format(Locale.ROOT, "compositions of shifts it survived: %d tried, %d break it%n", tried.size(), breaking.size()));
                for (Frontier.Test t : breaking) {
                    sb.append(String.format(Locale.ROOT, "  %-62s drop %6.3f [%6.3f, %6.3f] %5d episodes%s%n", t.label(), t.drop(), t.lower(), t.upper(),
                            t.pairs(), estimated(t, s)));
                }
            }
        }
        f.notApplicable().forEach(n -> sb.append("not applicable: ").append(n).append('\n'));
        sb.append(String.format(Locale.ROOT, "episodes: %d used of the budget of %d%s%n", f.spent(), s.budget(),
                f.complete() ? "" : "; stopped early: " + f.stopped() + " (rerun the same command to continue)"));
        return sb.toString();
    }

    /**
     * What on a shift's ladder the estimate decided, not the confidence sequence (a test reached its task cap or the
     * budget undecided): the verdict shown, or a weaker severity that held.
     */
    static String estimated(Frontier.ShiftResult x) {
        Frontier.Test d = x.decisive();
        if (d == null || x.decided() || x.status() == Frontier.Status.UNKNOWN) return "";
        return d.decided() ? " (a weaker one held by estimate)" : " (by estimate)";
    }

    /** A composition's verdict by its estimate: at the task cap, or where the budget stopped it (fewer tasks, less to go on). */
    static String estimated(Frontier.Test t, FrontierSearch.Settings s) {
        if (t.decided()) return "";
        return t.pairs() < s.maxTasks() ? " (budget ran out: by estimate)" : " (by estimate)";
    }

    // ---------------------------------------------------------------- HTML

    static String html(FrontierRun.Result r, String agent, List<EpisodeResult> examples) {
        Frontier f = r.frontier();
        String title = "Robustness frontier of " + agent;
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>").append(esc(title)).append("</title>\n<style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:80em}table{border-collapse:collapse;margin:1em 0}")
                .append("th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}th{background:#f3f3f3}td.l{text-align:left}")
                .append(".breaks{color:#b42318}.holds{color:#1a7f37}.ci{color:#666;font-size:.85em}pre{background:#f7f7f7;padding:1em;overflow-x:auto;")
                .append("white-space:pre-wrap}.chart{width:100%;height:").append(Math.max(300, 26 * f.shifts().size() + 120)).append("px}")
                .append("</style>\n").append(HtmlReport.echartsScript()).append(HtmlReport.chartsScript()).append("</head><body>\n");
        FrontierSearch.Settings s = f.settings();
        sb.append("<h1>").append(esc(title)).append("</h1>\n<p>A shift <span class=\"breaks\">breaks</span> the agent at a severity when its success ")
                .append(String.format(Locale.ROOT, "falls at least %.2f below its static success on the same tasks, at %.0f%% confidence ", s.drop(), 100 * s.confidence()))
                .append("(an anytime-valid confidence sequence on the paired differences: docs/frontier.md). Each shift is climbed from its weakest severity; ")
                .append("the first that breaks the agent is its frontier, and stronger ones are not run. ")
                .append(String.format(Locale.ROOT, "Run <code>%s</code>; %d episodes used of a budget of %d%s.</p>%n", esc(r.runId()), f.spent(), s.budget(),
                        f.complete() ? "" : " (stopped early: " + esc(f.stopped()) + ")"));
        for (Frontier.Static st : f.statics()) {
            sb.append(String.format(Locale.ROOT, "<p>%s: static success %.3f over the %d tasks used.</p>%n", esc(st.env()), st.successRate(), st.tasks()));
        }
        sb.append("<h2>The frontier</h2>\n<p>Drop in success per shift and severity (static minus shifted, same tasks). ")
                .append("&#10007; breaks, &#10003; holds; an empty cell was not run (a weaker severity broke the agent, or the budget ran out).</p>\n");
        sb.append("<div id=\"frontier\" class=\"chart\"></div>\n");
        sb.append("<table><tr><th>environment</th><th>tier</th><th>shift</th><th>frontier</th><th>drop [interval]</th><th>tasks per severity</th><th>episodes</th></tr>\n");
        for (Frontier.ShiftResult x : f.shifts()) {
            Frontier.Test d = x.decisive();
            String cls = x.status() == Frontier.Status.BREAKS ? "breaks" : x.status() == Frontier.Status.HOLDS ? "holds" : "";
            List<String> per = new ArrayList<>();
            for (Frontier.Test t : x.rungs()) per.add(t.level() + ": " + t.pairs() + (t.decided() ? "" : "*"));
            sb.append("<tr><td class=\"l\">").append(esc(x.env())).append("</td><td class=\"l\">").append(esc(x.tier())).append("</td><td class=\"l\">")
                    .append(esc(x.shift())).append("</td><td class=\"l ").append(cls).append("\">").append(esc(x.describe() + estimated(x)))
                    .append("</td><td>")
                    .append(d == null ? "-" : String.format(Locale.ROOT, "%.3f <span class=\"ci\">[%.3f, %.3f]</span>", d.drop(), d.lower(), d.upper()))
                    .append("</td><td class=\"l\">").append(esc(String.join(", ", per))).append("</td><td>").append(x.episodes()).append("</td></tr>\n");
        }
        sb.append("</table>\n<p class=\"ci\">* the test reached its task cap or the budget undecided: the estimate decided.</p>\n");
        if (!f.compositions().isEmpty()) {
            sb.append("<h2>Compositions of shifts it survived</h2>\n<table><tr><th>environment</th><th>shifts</th><th>verdict</th><th>drop [interval]</th><th>episodes</th></tr>\n");
            for (Frontier.Test t : f.compositions()) {
                sb.append("<tr><td class=\"l\">").append(esc(t.env())).append("</td><td class=\"l\">").append(esc(t.label())).append("</td><td class=\"l ")
                        .append(t.breaks() ? "breaks" : "holds").append("\">").append(t.verdict().id()).append(estimated(t, s))
                        .append(String.format(Locale.ROOT, "</td><td>%.3f <span class=\"ci\">[%.3f, %.3f]</span></td><td>%d</td></tr>%n", t.drop(), t.lower(), t.upper(), t.pairs()));
            }
            sb.append("</table>\n");
        }
        if (!f.notApplicable().isEmpty()) {
            sb.append("<h2>Not applicable</h2>\n<ul>\n");
            for (String n : f.notApplicable()) sb.append("<li>").append(esc(n)).append("</li>\n");
            sb.append("</ul>\n");
        }
        sb.append("<h2>Example failing trajectories</h2>\n<p>For each shift and composition that broke the agent, the first task it solved static ")
                .append("and failed under the shift, at the breaking severity (also in failures.jsonl: <code>openagent show failures.jsonl</code>).</p>\n");
        if (examples.isEmpty()) sb.append("<p>None: nothing broke the agent.</p>\n");
        for (EpisodeResult e : examples) {
            sb.append("<h3>").append(esc(e.env() + " / " + e.shift() + " / task " + e.trajectory().taskId())).append("</h3>\n<pre>")
                    .append(esc(Transcript.render(e.trajectory(), false))).append("</pre>\n");
        }
        sb.append("<script>\n").append(chart(f)).append("</script>\n</body></html>\n");
        return sb.toString();
    }

    /** The frontier's chart, drawn by the shared chart code ({@code OpenAgentCharts.frontier}) from {@link #chartData}. */
    private static String chart(Frontier f) {
        return "const F = " + HtmlReport.jsonInScript(chartData(f.verdicts(), f.settings().drop())) + ";\n" + """
                const chart = echarts.init(document.getElementById('frontier'));
                OpenAgentCharts.frontier(chart, F);
                window.addEventListener('resize', () => chart.resize());
                """;
    }

    /**
     * What {@code OpenAgentCharts.frontier} draws (charts.js; this report and {@code openagent view} both): one row
     * per shift (the first at the top; prefixed with its environment when there are several), one column per
     * severity, a cell per rung tested: {@code [column, row, drop, breaks, tasks, decided, low, high, frontier]},
     * {@code frontier} marking the shift's breaking severity.
     */
    public static ObjectNode chartData(FrontierVerdicts v, double drop) {
        java.util.TreeSet<Integer> levels = new java.util.TreeSet<>();
        for (FrontierVerdicts.Shift x : v.shifts()) {
            levels.addAll(x.severities());
            for (FrontierVerdicts.Test t : v.rungs(x)) levels.add(t.severity());
        }
        List<Integer> cols = new ArrayList<>(levels);
        boolean envs = v.shifts().stream().map(FrontierVerdicts.Shift::env).distinct().count() > 1;
        List<String> rows = new ArrayList<>();
        ArrayNode data = Json.array();
        for (int i = v.shifts().size() - 1; i >= 0; i--) {
            FrontierVerdicts.Shift x = v.shifts().get(i);
            rows.add((envs ? x.env() + " / " : "") + x.shift());
            for (FrontierVerdicts.Test t : v.rungs(x)) {
                data.addArray().add(cols.indexOf(t.severity())).add(rows.size() - 1).add(Frontier.round(t.drop())).add(t.breaks()).add(t.episodes())
                        .add(t.decided()).add(Frontier.round(t.low())).add(Frontier.round(t.high()))
                        .add(x.breakingSeverity() != null && x.breakingSeverity() == t.severity());
            }
        }
        ObjectNode in = Json.object();
        in.set("rows", Json.tree(rows));
        in.set("cols", Json.tree(cols.stream().map(c -> "severity " + c).toList()));
        in.set("data", data);
        in.put("drop", drop);
        return in;
    }

    private static String esc(String s) {
        return HtmlReport.escapeHtml(s == null ? "" : s);
    }
}
