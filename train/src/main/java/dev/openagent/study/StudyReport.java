package dev.openagent.study;

import dev.openagent.study.PaperStudy.Finding;
import dev.openagent.study.PaperStudy.Result;
import dev.openagent.study.PaperStudy.Row;
import dev.openagent.shift.Tier;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;
import dev.openagent.report.Reports;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The study's own summary: its tables with confidence intervals and the paper's findings checked,
 * as Markdown (for terminals, {@code study.md}) and a small self-contained page ({@code study.html}).
 * The full evaluation report (heatmap, per-agent bars, trajectory browser) is the evaluation
 * module's, written beside it by {@link #writeEvaluationReport}.
 */
public final class StudyReport {
    private StudyReport() {}

    /** Columns of the summary table: static, then the tiers. */
    static List<String> tiers() {
        List<String> out = new ArrayList<>();
        out.add(PaperStudy.STATIC);
        for (Tier t : Tier.values()) out.add(t.id());
        return out;
    }

    static List<String> agents(Result r) {
        Set<String> out = new LinkedHashSet<>();
        r.rows().forEach(x -> out.add(x.agent()));
        return List.copyOf(out);
    }

    static List<String[]> shifts(Result r) {
        Set<String> seen = new LinkedHashSet<>();
        List<String[]> out = new ArrayList<>();
        for (String tier : tiers()) {
            for (Row x : r.rows()) {
                if (x.shift() != null && x.tier().equals(tier) && seen.add(x.shift())) out.add(new String[]{tier, x.shift()});
            }
        }
        return out;
    }

    /**
     * The condition's ceiling (the same on every agent's row), or null where none was measured: the share of
     * its tasks the policy's action space can express at all, against which its success is read.
     */
    static Double ceiling(Result r, String tier, String shift) {
        return r.rows().stream().filter(x -> x.tier().equals(tier) && java.util.Objects.equals(x.shift(), shift) && x.ceiling() != null)
                .map(Row::ceiling).findFirst().orElse(null);
    }

    static boolean hasCeilings(Result r) {
        return r.rows().stream().anyMatch(x -> x.ceiling() != null);
    }

    /** What the ceiling column means, said once under each table that shows it. */
    static final String CEILING_NOTE = "ceiling: the share of the condition's test tasks whose oracle way the SFT policy's action space can express "
            + "(the oracle's actions replayed through its pointers; RL and PAFT share it), so a success is read against what was possible; "
            + "a policy can pass it only where another way also works";

    public static String markdown(Result r) {
        StringBuilder sb = new StringBuilder();
        sb.append("# ").append(title(r)).append(" (").append(r.budget()).append(", seed ").append(r.seed()).append(")\n\n");
        sb.append("Success rate [95% Wilson CI] on test tasks; tiers pool their shifts.\n\n");
        List<String> tiers = tiers();
        sb.append("| agent | ").append(String.join(" | ", tiers)).append(" |\n|---|");
        sb.append("---|".repeat(tiers.size())).append('\n');
        for (String a : agents(r)) {
            sb.append("| ").append(a).append(" |");
            for (String t : tiers) sb.append(' ').append(cell(Findings.find(r.rows(), a, t, null).orElse(null))).append(" |");
            sb.append('\n');
        }
        boolean ceilings = hasCeilings(r);
        if (ceilings) {
            sb.append("| *ceiling* |");
            for (String t : tiers) sb.append(' ').append(ceilingText(ceiling(r, t, null))).append(" |");
            sb.append("\n\n").append(CEILING_NOTE).append(".\n");
        }
        List<String[]> shifts = shifts(r);
        if (!shifts.isEmpty()) {
            sb.append("\nPer shift (success rate; refusal rate where the task is unsolvable; attack success where the episode is attacked):\n\n");
            sb.append("| tier | shift | ").append(ceilings ? "ceiling | " : "").append(String.join(" | ", agents(r))).append(" |\n|---|---|");
            sb.append("---|".repeat(agents(r).size() + (ceilings ? 1 : 0))).append('\n');
            for (String[] s : shifts) {
                sb.append("| ").append(s[0]).append(" | ").append(s[1]).append(" |");
                if (ceilings) sb.append(' ').append(ceilingText(ceiling(r, s[0], s[1]))).append(" |");
                for (String a : agents(r)) {
                    Row x = Findings.find(r.rows(), a, s[0], s[1]).orElse(null);
                    sb.append(' ').append(x == null ? "-" : String.format(Locale.ROOT, "%.3f", x.successRate()));
                    if (x != null && s[1].equals(Findings.UNSOLVABLE)) sb.append(String.format(Locale.ROOT, " (refused %.3f)", x.refusalRate()));
                    if (x != null && x.attackSuccessRate() != null) sb.append(String.format(Locale.ROOT, " (attacked %.3f)", x.attackSuccessRate()));
                    sb.append(" |");
                }
                sb.append('\n');
            }
        }
        sb.append("\n## ").append(findingsHeading(r)).append("\n\n");
        for (Finding f : r.findings()) sb.append("- **").append(f.verdict()).append("**: ").append(f.claim()).append(". ").append(f.evidence()).append('\n');
        if (!r.notes().isEmpty()) {
            sb.append("\n## Notes\n\n");
            for (String n : r.notes()) sb.append("- ").append(n).append('\n');
        }
        sb.append("\n## Time (seconds)\n\n");
        r.seconds().forEach((k, v) -> sb.append("- ").append(k).append(": ").append(v).append('\n'));
        return sb.toString();
    }

    static String title(Result r) {
        return r.isPaftMix() ? "PAFT mix ablation on poi (alpha " + PaftMixStudy.ALPHA + ")" : "Paper study on poi";
    }

    private static String findingsHeading(Result r) {
        return r.isPaftMix() ? "Each mix against SFT: the drop recovered, the static cost, refusal" : "The paper's findings, checked";
    }

    private static String ceilingText(Double c) {
        return c == null ? "-" : String.format(Locale.ROOT, "%.3f", c);
    }

    private static String cell(Row x) {
        if (x == null) return "-";
        String attacked = x.attackSuccessRate() == null ? "" : String.format(Locale.ROOT, ", attacked %.3f", x.attackSuccessRate());
        return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]%s", x.successRate(), x.ciLow(), x.ciHigh(), attacked);
    }

    public static void writeHtml(Result r, Path file) {
        StringBuilder sb = new StringBuilder(head("OpenAgent " + title(r), ""));
        sb.append("<h1>").append(esc(title(r))).append("</h1>\n<p>Budget <b>").append(esc(r.budget())).append("</b>, seed ").append(r.seed())
                .append(". Success rate with 95% Wilson interval on test tasks; a tier pools its shifts.</p>\n");
        List<String> tiers = tiers();
        sb.append("<table><tr><th>agent</th>");
        for (String t : tiers) sb.append("<th>").append(esc(t)).append("</th>");
        sb.append("</tr>\n");
        for (String a : agents(r)) {
            sb.append("<tr><td class=\"l\">").append(esc(a)).append("</td>");
            for (String t : tiers) sb.append(htmlCell(Findings.find(r.rows(), a, t, null).orElse(null), false));
            sb.append("</tr>\n");
        }
        boolean ceilings = hasCeilings(r);
        if (ceilings) {
            sb.append("<tr><td class=\"l\"><i>ceiling</i></td>");
            for (String t : tiers) sb.append("<td>").append(ceilingText(ceiling(r, t, null))).append("</td>");
            sb.append("</tr>\n");
        }
        sb.append("</table>\n");
        if (ceilings) sb.append("<p class=\"ci\">").append(esc(CEILING_NOTE)).append(".</p>\n");
        List<String[]> shifts = shifts(r);
        if (!shifts.isEmpty()) {
            sb.append("<h2>Per shift</h2>\n<table><tr><th>tier</th><th>shift</th>");
            if (ceilings) sb.append("<th>ceiling</th>");
            for (String a : agents(r)) sb.append("<th>").append(esc(a)).append("</th>");
            sb.append("</tr>\n");
            for (String[] s : shifts) {
                sb.append("<tr><td class=\"l\">").append(esc(s[0])).append("</td><td class=\"l\">").append(esc(s[1])).append("</td>");
                if (ceilings) sb.append("<td>").append(ceilingText(ceiling(r, s[0], s[1]))).append("</td>");
                for (String a : agents(r)) sb.append(htmlCell(Findings.find(r.rows(), a, s[0], s[1]).orElse(null), s[1].equals(Findings.UNSOLVABLE)));
                sb.append("</tr>\n");
            }
            sb.append("</table>\n");
        }
        appendFindings(sb, findingsHeading(r), r.findings(), r.notes(), r.seconds());
        sb.append("</body></html>\n");
        write(file, sb.toString());
    }

    /** A study page's findings (coloured by verdict), notes and time table, under {@code heading}. */
    public static void appendFindings(StringBuilder sb, String heading, List<Finding> findings, List<String> notes, Map<String, Double> seconds) {
        sb.append("<h2>").append(esc(heading)).append("</h2>\n<ul>\n");
        for (Finding f : findings) {
            String css = f.verdict().equals(Findings.HOLDS) ? "holds" : f.verdict().equals(Findings.FAILS) ? "fails" : "partly";
            sb.append("<li><b class=\"").append(css).append("\">").append(esc(f.verdict())).append("</b>: ").append(esc(f.claim()))
                    .append(". <span class=\"ci\">").append(esc(f.evidence())).append("</span></li>\n");
        }
        sb.append("</ul>\n");
        if (!notes.isEmpty()) {
            sb.append("<h2>Notes</h2>\n<ul>\n");
            for (String n : notes) sb.append("<li>").append(esc(n)).append("</li>\n");
            sb.append("</ul>\n");
        }
        sb.append("<h2>Time</h2>\n<table>");
        seconds.forEach((k, v) -> sb.append("<tr><td class=\"l\">").append(esc(k)).append("</td><td>").append(v).append(" s</td></tr>"));
        sb.append("</table>\n");
    }

    /** The start of a study page: its title, the shared style and any extra head markup, up to {@code <body>}. */
    public static String head(String title, String extra) {
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + esc(title) + "</title>\n<style>"
                + "body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
                + "th,td{border:1px solid #ccc;padding:.3em .6em;text-align:right}th{background:#f3f3f3}td.l{text-align:left}"
                + ".ci{color:#666;font-size:.85em}.holds{color:#1a7f37}.fails{color:#b42318}.partly{color:#9a6700}"
                + "</style>" + extra + "</head><body>\n";
    }

    /** A table cell coloured from red (0) to green (1). */
    static String heatStyle(double v) {
        return String.format(Locale.ROOT, "hsl(%d,70%%,85%%)", Math.round(120 * Math.max(0, Math.min(1, v))));
    }

    private static String htmlCell(Row x, boolean refusal) {
        if (x == null) return "<td>-</td>";
        double v = x.successRate();
        String bg = heatStyle(v);
        String extra = (refusal ? String.format(Locale.ROOT, "<br><span class=\"ci\">refused %.3f</span>", x.refusalRate()) : "")
                + (x.attackSuccessRate() == null ? "" : String.format(Locale.ROOT, "<br><span class=\"ci\">attacked %.3f</span>", x.attackSuccessRate()));
        return String.format(Locale.ROOT, "<td style=\"background:%s\">%.3f<br><span class=\"ci\">[%.3f, %.3f] n=%d</span>%s</td>", bg, v,
                x.ciLow(), x.ciHigh(), x.episodes(), extra);
    }

    public static void writeMarkdown(String markdown, Path file) { write(file, markdown); }

    /** The evaluation module's report of every episode of the study: report.html, report.md, summary.json in {@code dir}. */
    public static Reports.Written writeEvaluationReport(Result r, List<EpisodeResult> episodes, Path dir) {
        ObjectNode config = Json.object().put("study", r.study()).put("budget", r.budget()).put("seed", r.seed());
        return evaluationReport("study-" + r.study() + "-" + r.budget() + "-" + r.seed(), title(r) + " (" + r.budget() + ", seed " + r.seed() + ")",
                config, agents(r), episodes, dir);
    }

    /**
     * The evaluation module's report (heatmap, bars, failure taxonomy, trajectory browser) of a
     * study's episodes; {@code config} names the study, and gains the split, envs, shifts and agents.
     */
    static Reports.Written evaluationReport(String id, String title, ObjectNode config, List<String> agents,
                                            List<EpisodeResult> episodes, Path dir) {
        String now = java.time.Instant.now().toString();
        config.put("split", "test");
        java.util.Set<String> envs = new java.util.LinkedHashSet<>();
        java.util.Set<String> shifts = new java.util.LinkedHashSet<>();
        java.util.Map<String, Integer> tasks = new java.util.LinkedHashMap<>();
        int trials = 1;
        for (EpisodeResult e : episodes) {
            envs.add(e.env());
            shifts.add(e.shift());
            tasks.merge(e.agent() + "\u0000" + e.env() + "\u0000" + e.shift(), 1, Integer::sum);
            trials = Math.max(trials, e.key().trial() + 1);
        }
        config.put("trials", trials);
        envs.forEach(config.putArray("envs")::add);
        shifts.forEach(config.putArray("shifts")::add);
        config.put("tasks", tasks.values().stream().mapToInt(Integer::intValue).max().orElse(0) / trials);
        agents.forEach(a -> config.withArray("agents").addObject().put("label", a));
        RunInfo run = new RunInfo(id, title, Json.write(config), now, now, episodes.size(), RunStatus.COMPLETE, null);
        return Reports.write(dir, run, episodes, 1500);
    }

    public static void writeJson(String json, Path file) { write(file, json + "\n"); }

    static void write(Path file, String text) {
        try {
            if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserInputException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
