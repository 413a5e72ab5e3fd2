package dev.openagent.study;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.report.HtmlReport;
import dev.openagent.report.Reports;
import dev.openagent.results.EpisodeResult;
import dev.openagent.study.CrossEnvStudy.Excluded;
import dev.openagent.study.CrossEnvStudy.Grid;
import dev.openagent.study.CrossEnvStudy.Result;
import dev.openagent.study.CrossEnvStudy.Row;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A cross-environment study's summary: the protocol in two sentences, its heatmap (ECharts,
 * inlined) or table, every evaluated cell with its interval, turns, tokens and failure taxonomy,
 * and the protocol's own figures. The same tables render as Markdown ({@code study.md}, what the
 * command prints) and HTML ({@code study.html}).
 */
public final class EnvStudyReport {
    private EnvStudyReport() {}

    /** A table both renderers share; the first {@code left} columns are text, the rest numbers. */
    record Table(String title, String note, List<String> header, List<List<String>> rows, int left) {}

    static String title(Result r) {
        String k = r.kind().id();
        return Character.toUpperCase(k.charAt(0)) + k.substring(1) + " study (" + r.settings().method().id() + ", " + r.settings().budget()
                + ", seed " + r.settings().seed() + ")";
    }

    static List<Table> tables(Result r) {
        List<Table> out = new ArrayList<>();
        Grid g = r.grid();
        List<String> head = new ArrayList<>();
        head.add(g.rows() + " \\ " + g.columns());
        head.addAll(g.columnLabels());
        List<List<String>> lines = new ArrayList<>();
        for (int i = 0; i < g.rowLabels().size(); i++) {
            List<String> line = new ArrayList<>();
            line.add(g.rowLabels().get(i));
            for (Double v : g.values().get(i)) line.add(v == null ? "-" : f3(v));
            lines.add(line);
        }
        out.add(new Table("Success (the heatmap)", "avg@" + r.settings().k() + " on test tasks", head, lines, 1));
        out.addAll(figures(r));
        List<List<String>> cells = new ArrayList<>();
        for (Row x : r.rows()) {
            Score s = x.score();
            cells.add(List.of(x.policy(), x.train(), x.env(), x.difficulty(),
                    String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", s.successRate(), s.ciLow(), s.ciHigh()),
                    String.valueOf(s.episodes()), String.format(Locale.ROOT, "%.1f", s.turns()), String.format(Locale.ROOT, "%.0f", s.tokens()),
                    failures(s.failures())));
        }
        out.add(new Table("Every cell", "success is avg@" + r.settings().k() + " with a 95% Wilson interval over tasks; turns and tokens per episode "
                + "(tokens: what the policy read to decide each action plus what it wrote); failures: the failure taxonomy's categories",
                List.of("policy", "trained on", "tested on", "difficulty", "success [95% CI]", "episodes", "turns", "tokens", "failures"), cells, 4));
        return out;
    }

    /** The protocol's own figures. */
    private static List<Table> figures(Result r) {
        ObjectNode s = r.summary();
        List<Table> out = new ArrayList<>();
        switch (r.kind()) {
            case DIFFICULTY -> out.add(new Table("Difficulty generalisation", "gains in hard-task success over the untrained policy",
                    List.of("figure", "value"), List.of(
                    List.of("easy-only training, hard tasks", signed(s.path("easy_to_hard_gain"))),
                    List.of("hard-only training, hard tasks", signed(s.path("hard_only_gain")))), 1));
            case TRANSFER -> {
                List<List<String>> g = new ArrayList<>();
                s.path("gains").properties().forEach(e -> {
                    List<String> line = new ArrayList<>();
                    line.add(e.getKey());
                    e.getValue().forEach(v -> line.add(signed(v)));
                    g.add(line);
                });
                List<String> head = new ArrayList<>();
                head.add("trained on \\ tested on");
                s.path("untrained").fieldNames().forEachRemaining(head::add);
                out.add(new Table("Gain over the untrained policy", "held-in (diagonal) mean " + signed(s.path("held_in_gain"))
                        + ", held-out (off-diagonal) mean " + signed(s.path("held_out_gain")), head, g, 1));
            }
            case SEQUENTIAL -> {
                List<List<String>> lines = new ArrayList<>();
                for (String e : r.envs()) {
                    lines.add(List.of(e, s.path("forgetting").has(e) ? signed(s.path("forgetting").path(e)) : "- (last stage)",
                            s.path("forward_transfer").has(e) ? signed(s.path("forward_transfer").path(e)) : "- (first stage)"));
                }
                lines.add(List.of("mean", signed(s.path("mean_forgetting")), signed(s.path("mean_forward_transfer"))));
                out.add(new Table("Forgetting and forward transfer", "forgetting: success just after the environment's stage minus "
                        + "success after the last stage (positive = forgotten); forward transfer: success before the environment's "
                        + "stage minus the untrained policy's", List.of("environment", "forgetting", "forward transfer"), lines, 1));
            }
            case MIXTURE -> {
                List<String> head = new ArrayList<>();
                head.add("strategy");
                List<List<String>> lines = new ArrayList<>();
                s.path("strategies").properties().forEach(e -> {
                    if (head.size() == 1) e.getValue().fieldNames().forEachRemaining(head::add);
                    List<String> line = new ArrayList<>();
                    line.add(e.getKey());
                    e.getValue().forEach(v -> line.add(v.isNull() ? "-" : f3(v.asDouble())));
                    lines.add(line);
                });
                out.add(new Table("Strategies side by side", "success per test environment, its mean and its minimum (the balance); "
                        + "the mixture trains as many steps as all single-environment runs together, sequential as many", head, lines, 1));
            }
        }
        return out;
    }

    public static String markdown(Result r) {
        StringBuilder sb = new StringBuilder("# ").append(title(r)).append("\n\n").append(r.kind().protocol()).append("\n\n");
        sb.append("Environments: ").append(String.join(", ", r.envs())).append(".\n");
        for (Excluded e : r.excluded()) sb.append("Excluded: ").append(e.env()).append(" (").append(e.reason()).append(").\n");
        for (Table t : tables(r)) {
            sb.append("\n## ").append(t.title()).append("\n\n").append(t.note()).append(".\n\n");
            sb.append("| ").append(String.join(" | ", t.header())).append(" |\n|");
            for (int i = 0; i < t.header().size(); i++) sb.append(i < t.left() ? "---|" : "---:|");
            sb.append('\n');
            for (List<String> line : t.rows()) sb.append("| ").append(String.join(" | ", line)).append(" |\n");
        }
        if (!r.notes().isEmpty()) {
            sb.append("\n## Notes\n\n");
            r.notes().forEach(n -> sb.append("- ").append(n).append('\n'));
        }
        sb.append("\n## Time (seconds)\n\n");
        r.seconds().forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    public static void writeHtml(Result r, Path file) {
        String title = title(r);
        StringBuilder sb = new StringBuilder(StudyReport.head("OpenAgent " + title, HtmlReport.echartsScript()));
        sb.append("<h1>").append(StudyReport.esc(title)).append("</h1>\n<p>").append(StudyReport.esc(r.kind().protocol())).append("</p>\n");
        sb.append("<p>Environments: <b>").append(StudyReport.esc(String.join(", ", r.envs()))).append("</b>.");
        for (Excluded e : r.excluded()) sb.append("<br>Excluded: <b>").append(StudyReport.esc(e.env())).append("</b> (").append(StudyReport.esc(e.reason())).append(").");
        sb.append("</p>\n");
        Grid g = r.grid();
        int height = 120 + 40 * g.rowLabels().size();
        sb.append("<div id=\"heatmap\" style=\"width:min(100%,").append(220 + 110 * g.columnLabels().size()).append("px);height:").append(height).append("px\"></div>\n");
        sb.append("<script>const grid = ").append(HtmlReport.jsonInScript((ObjectNode) Json.tree(g))).append(";\n").append(HEATMAP).append("</script>\n");
        for (Table t : tables(r)) {
            sb.append("<h2>").append(StudyReport.esc(t.title())).append("</h2>\n<p class=\"ci\">").append(StudyReport.esc(t.note())).append(".</p>\n<table><tr>");
            for (String h : t.header()) sb.append("<th>").append(StudyReport.esc(h)).append("</th>");
            sb.append("</tr>\n");
            boolean heat = t.title().startsWith("Success");
            for (List<String> line : t.rows()) {
                sb.append("<tr>");
                for (int i = 0; i < line.size(); i++) {
                    String v = line.get(i);
                    if (i < t.left()) sb.append("<td class=\"l\">").append(StudyReport.esc(v)).append("</td>");
                    else if (heat && !v.equals("-")) sb.append("<td style=\"background:").append(StudyReport.heatStyle(Double.parseDouble(v))).append("\">").append(v).append("</td>");
                    else sb.append("<td").append(i == line.size() - 1 && t.title().equals("Every cell") ? " class=\"l\"" : "").append(">").append(StudyReport.esc(v)).append("</td>");
                }
                sb.append("</tr>\n");
            }
            sb.append("</table>\n");
        }
        if (!r.notes().isEmpty()) {
            sb.append("<h2>Notes</h2>\n<ul>\n");
            r.notes().forEach(n -> sb.append("<li>").append(StudyReport.esc(n)).append("</li>\n"));
            sb.append("</ul>\n");
        }
        sb.append("<h2>Time</h2>\n<p class=\"ci\">Wall-clock seconds; training and evaluation overlap on two threads.</p>\n<table>");
        r.seconds().forEach((k, v) -> sb.append("<tr><td class=\"l\">").append(StudyReport.esc(k)).append("</td><td>").append(v).append(" s</td></tr>"));
        sb.append("</table>\n<p>Every episode: <a href=\"report.html\">report.html</a> (failure taxonomy, trajectory browser).</p>\n</body></html>\n");
        StudyReport.write(file, sb.toString());
    }

    /** Draws {@code grid} (rows x columns of success rates, null where not evaluated) as an ECharts heatmap. */
    private static final String HEATMAP = """
            (function () {
              const chart = echarts.init(document.getElementById('heatmap'));
              const data = [];
              grid.values.forEach((line, i) => line.forEach((v, j) => { if (v !== null) data.push([j, i, v]); }));
              chart.setOption({
                tooltip: {formatter: p => grid.rowLabels[p.value[1]] + ' / ' + grid.columnLabels[p.value[0]] + ': ' + p.value[2].toFixed(3)},
                grid: {left: 200, top: 30, bottom: 60},
                xAxis: {type: 'category', data: grid.columnLabels, name: grid.columns, nameLocation: 'middle', nameGap: 30, splitArea: {show: true}},
                yAxis: {type: 'category', data: grid.rowLabels, name: grid.rows, inverse: true, splitArea: {show: true}},
                visualMap: {min: 0, max: 1, show: false, inRange: {color: ['#f4a6a6', '#fbe3a1', '#a6dba0']}},
                series: [{type: 'heatmap', data: data, label: {show: true, formatter: p => p.value[2].toFixed(2)}}]
              });
              window.addEventListener('resize', () => chart.resize());
            })();
            """;

    /** The evaluation module's report of every episode (report.html, report.md, summary.json). */
    public static Reports.Written writeEvaluationReport(Result r, List<EpisodeResult> episodes, Path dir) {
        ObjectNode config = Json.object().put("study", r.kind().id()).put("method", r.settings().method().id())
                .put("budget", r.settings().budget()).put("seed", r.settings().seed());
        List<String> agents = episodes.stream().map(EpisodeResult::agent).distinct().toList();
        String id = "study-" + r.kind().id() + "-" + r.settings().method().id() + "-" + r.settings().budget() + "-" + r.settings().seed();
        return StudyReport.evaluationReport(id, title(r), config, agents, episodes, dir);
    }

    private static String failures(Map<String, Integer> f) {
        return f.entrySet().stream().filter(e -> !e.getKey().equals("success"))
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String f3(double v) { return String.format(Locale.ROOT, "%.3f", v); }

    private static String signed(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() ? "-" : String.format(Locale.ROOT, "%+.3f", v.asDouble());
    }
}
