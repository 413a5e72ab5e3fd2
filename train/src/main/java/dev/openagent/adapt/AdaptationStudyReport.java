package dev.openagent.adapt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.study.PaperStudy.Finding;
import dev.openagent.adapt.AdaptationStudy.Result;
import dev.openagent.adapt.AdaptationStudy.Row;
import dev.openagent.adapt.AdaptationStudy.Scenario;
import dev.openagent.json.Json;
import dev.openagent.policy.PolicyEval.Figures;
import dev.openagent.report.HtmlReport;
import dev.openagent.study.StudyReport;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The adaptation study's table, curves and findings as Markdown, HTML (with the curves drawn) and CSV. */
public final class AdaptationStudyReport {
    private AdaptationStudyReport() {}

    /** The table's columns, as both formats print them. */
    static final List<String> COLUMNS = List.of("scenario", "start", "repair", "static before", "under the shift before", "recovered at (episodes)",
            "under the shift after", "static after", "other tiers after");

    /** results.json: the whole result, as --json prints it. */
    public static ObjectNode json(Result r) {
        ObjectNode o = Json.object();
        o.put("study", AdaptationStudy.ID);
        o.put("budget", r.budget());
        o.put("seed", r.seed());
        o.put("env", AdaptationStudy.ENV);
        o.put("recovered_within", r.recoveredWithin());
        o.set("scenarios", Json.tree(r.scenarios()));
        o.set("starts", Json.tree(r.starts()));
        o.set("rows", Json.tree(r.rows()));
        o.set("findings", Json.tree(r.findings()));
        o.set("training", Json.tree(r.training()));
        o.set("notes", Json.tree(r.notes()));
        o.set("seconds", Json.tree(r.seconds()));
        return o;
    }

    public static String markdown(Result r) {
        StringBuilder sb = new StringBuilder("# Adaptation study (" + r.budget() + ", seed " + r.seed() + ")\n\n");
        sb.append(String.format(Locale.ROOT, "On %s. Recovered: success under the shift within %.0f points of the start's own static success, "
                + "greedy on the same test tasks after each round. Success rate with its 95%% Wilson interval; a change is after minus before.%n%n",
                AdaptationStudy.ENV, r.recoveredWithin() * 100));
        sb.append("| ").append(String.join(" | ", COLUMNS)).append(" |\n|");
        sb.append("---|".repeat(COLUMNS.size())).append('\n');
        for (Row x : r.rows()) {
            sb.append("| ").append(x.scenario()).append(" `").append(x.spec()).append("` | ").append(x.start()).append(" | ").append(x.method())
                    .append(" | ").append(cell(x.staticBefore())).append(" | ").append(cell(x.targetBefore())).append(" | ")
                    .append(x.recoveredAt() == null ? "not within " + x.episodes() : "**" + x.recoveredAt() + "**").append(" | ")
                    .append(cell(x.targetAfter())).append(" | ").append(change(x.staticAfter(), x.staticChange())).append(" | ")
                    .append(change(x.othersAfter(), x.othersChange())).append(" |\n");
        }
        sb.append("\n## Learning curves (success under the shift against episodes)\n\n");
        for (Scenario s : r.scenarios()) {
            sb.append("- ").append(s.label()).append(": ");
            List<String> parts = r.rows().stream().filter(x -> x.scenario().equals(s.name()))
                    .map(x -> x.start() + "/" + x.method() + " " + String.join(" ", x.curve().stream()
                            .map(p -> String.format(Locale.ROOT, "%d:%.2f", p.episodes(), p.target().successRate())).toList())).toList();
            sb.append(String.join("; ", parts)).append('\n');
        }
        sb.append("\n## Findings\n\n");
        for (Finding f : r.findings()) sb.append("- **").append(f.verdict()).append("**: ").append(f.claim()).append(". ").append(f.evidence()).append('\n');
        if (!r.notes().isEmpty()) {
            sb.append("\n## Notes\n\n");
            for (String n : r.notes()) sb.append("- ").append(n).append('\n');
        }
        sb.append("\n## Time\n\n");
        r.seconds().forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append(" s\n"));
        return sb.toString();
    }

    private static String cell(Figures f) {
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", f.successRate(), f.ciLow(), f.ciHigh());
    }

    private static String change(Figures f, double change) {
        return String.format(Locale.ROOT, "%s (%+.3f)", cell(f), change);
    }

    /** Every point of every curve: scenario, spec, start, method, episodes, success and its interval. */
    public static String csv(Result r) {
        StringBuilder sb = new StringBuilder("scenario,spec,start,method,episodes,success_rate,ci_low,ci_high,n\n");
        for (Row x : r.rows()) {
            for (AdaptationStudy.Point p : x.curve()) {
                sb.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%d,%.4f,%.4f,%.4f,%d%n", x.scenario(), x.spec(), x.start(), x.method(), p.episodes(),
                        p.target().successRate(), p.target().ciLow(), p.target().ciHigh(), p.target().episodes()));
            }
        }
        return sb.toString();
    }

    /** The page: one chart of curves per scenario (the start's static success minus 5 points drawn as its own line), the table, the findings. */
    public static void writeHtml(Result r, Path file) {
        StringBuilder sb = new StringBuilder(StudyReport.head("OpenAgent adaptation study", HtmlReport.echartsScript() + HtmlReport.chartsScript()));
        sb.append("<h1>Adaptation study</h1>\n<p>Budget <b>").append(esc(r.budget())).append("</b>, seed ").append(r.seed()).append(", on ")
                .append(AdaptationStudy.ENV).append(String.format(Locale.ROOT, ". Each chart: success under one persistent shift against the "
                        + "episodes a repair spent, greedy on the same test tasks, with 95%% intervals; a curve stops when it is within %.0f points "
                        + "of its start's static success (the flat lines, each start's goal).</p>\n", r.recoveredWithin() * 100));
        ObjectNode data = Json.object();
        ArrayNode charts = data.putArray("charts");
        sb.append("<div style=\"display:flex;flex-wrap:wrap;gap:12px\">\n");
        for (Scenario s : r.scenarios()) {
            String id = "curve-" + s.name().replaceAll("[^A-Za-z0-9]", "-");
            sb.append("<div><h3 style=\"margin:.2em 0\">").append(esc(s.label())).append("</h3><div id=\"").append(id)
                    .append("\" style=\"width:540px;height:290px\"></div></div>\n");
            ObjectNode chart = charts.addObject();
            chart.put("id", id);
            ArrayNode series = chart.putArray("series");
            for (Row x : r.rows()) {
                if (!x.scenario().equals(s.name())) continue;
                ObjectNode line = series.addObject();
                line.put("name", x.start() + " " + x.method());
                ArrayNode points = line.putArray("points");
                for (AdaptationStudy.Point p : x.curve()) {
                    points.addArray().add(p.episodes()).add(p.target().successRate()).add(p.target().ciLow()).add(p.target().ciHigh());
                }
            }
            for (String start : r.starts().keySet()) {
                ObjectNode level = series.addObject();
                level.put("name", start + " goal");
                double y = r.starts().get(start).get("static").successRate() - r.recoveredWithin();
                ArrayNode points = level.putArray("points");
                points.addArray().add(0).add(y);
                points.addArray().add(r.rows().stream().mapToLong(Row::episodes).max().orElse(0)).add(y);
            }
        }
        sb.append("</div>\n<h2>Table</h2>\n<table><tr>");
        for (String c : AdaptationStudyReport.COLUMNS) sb.append("<th>").append(esc(c)).append("</th>");
        sb.append("</tr>\n");
        for (Row x : r.rows()) {
            sb.append("<tr><td class=\"l\">").append(esc(x.scenario() + " " + x.spec())).append("</td><td class=\"l\">").append(esc(x.start()))
                    .append("</td><td class=\"l\">").append(esc(x.method())).append("</td><td>").append(cell(x.staticBefore())).append("</td><td>")
                    .append(cell(x.targetBefore())).append("</td><td>")
                    .append(x.recoveredAt() == null ? "not within " + x.episodes() : "<b>" + x.recoveredAt() + "</b>").append("</td><td>")
                    .append(cell(x.targetAfter())).append("</td><td>").append(change(x.staticAfter(), x.staticChange())).append("</td><td>")
                    .append(change(x.othersAfter(), x.othersChange())).append("</td></tr>\n");
        }
        sb.append("</table>\n");
        StudyReport.appendFindings(sb, "Findings", r.findings(), r.notes(), r.seconds());
        sb.append("<script>const DATA = ").append(HtmlReport.jsonInScript(data))
                .append(";\nDATA.charts.forEach(c => OpenAgentCharts.lines(echarts.init(document.getElementById(c.id)), c.series, 'episodes', 'rate'));\n</script>\n")
                .append("</body></html>\n");
        StudyReport.writeMarkdown(sb.toString(), file);
    }

    private static String esc(String s) { return HtmlReport.escapeHtml(s); }
}
