package dev.openagent.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report for terminals and pull requests: the same numbers as the HTML page, as Markdown tables. */
public final class MarkdownReport {
    private MarkdownReport() {}

    public static String render(ObjectNode data) {
        StringBuilder sb = new StringBuilder();
        JsonNode run = data.path("run");
        JsonNode s = data.path("summary");
        sb.append("# OpenAgent evaluation: ").append(md(run.path("name").asText(run.path("id").asText()))).append("\n\n");
        sb.append("Run `").append(run.path("id").asText()).append("` · status **").append(run.path("status").asText()).append("** · ")
                .append(String.join(" · ", texts(run.path("setup")))).append("\n\n");

        if (run.path("partial").asBoolean()) {
            sb.append("> **Partial results:** ").append(run.path("scored").asInt()).append(" of ").append(run.path("planned").asInt())
                    .append(" planned episodes are scored so far (shards may still be running, or some stopped); the numbers below cover only those.\n\n");
        }
        sb.append("## Overall\n\n| metric | value |\n|---|---|\n");
        int unscored = s.path("failures").path("unscored").asInt(0);
        row(sb, "episodes", s.path("episodes").asText() + " (" + s.path("errors").asText() + " infrastructure errors, not scored"
                + (unscored > 0 ? "; " + unscored + " proxy sessions without a task, not scored" : "") + ")");
        row(sb, "success rate", pct(s.get("success_rate")) + " " + ci(s.get("success_ci")));
        row(sb, "tool error rate", pct(s.get("tool_error_rate")) + " (" + s.path("tool_errors").asText() + " of " + s.path("tool_calls").asText() + " calls)");
        row(sb, "refusal rate (unsolvable tasks)", pct(s.get("refusal_rate")));
        row(sb, "false refusal rate (solvable tasks)", pct(s.get("false_refusal_rate")));
        row(sb, "attack success rate (attacked episodes)", pct(s.get("attack_success_rate")));
        row(sb, "turns per episode", num(s.get("avg_turns"), 1));
        row(sb, "tokens per episode", num(s.get("avg_tokens"), 0));
        row(sb, "tool-list tokens per turn", num(s.get("tool_list_tokens"), 0));
        row(sb, "tool-list tokens per episode", num(s.get("tool_list_tokens_per_episode"), 0));
        row(sb, "pass^k", passK(s.get("pass_k")));
        sb.append('\n');

        sb.append("## By agent and tier\n\n| agent | tier | n | success | 95% CI | Δ vs static | p |\n|---|---|---:|---:|---|---:|---:|\n");
        for (JsonNode c : data.path("cells")) {
            if (!c.path("env").asText().equals("*") || !c.path("shift").asText().equals("*")) continue;
            sb.append("| ").append(md(c.path("agent").asText())).append(" | ").append(c.path("tier").asText()).append(" | ")
                    .append(c.path("scored").asInt()).append(" | ").append(pct(c.get("success_rate"))).append(" | ").append(ci(c.get("success_ci")))
                    .append(" | ").append(delta(c.path("delta"))).append(" | ").append(p(c.path("delta"))).append(" |\n");
        }
        sb.append('\n');

        sb.append("## By agent and shift\n\n| agent | shift | tier | n | errors | success | 95% CI | Δ abs | Δ rel | p (McNemar) | refusal | false refusal | attack success | tool errors | turns | pass^k |\n")
                .append("|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (JsonNode c : data.path("cells")) {
            if (!c.path("env").asText().equals("*") || c.path("shift").asText().equals("*")) continue;
            JsonNode d = c.path("delta");
            sb.append("| ").append(md(c.path("agent").asText())).append(" | `").append(c.path("shift").asText()).append("` | ")
                    .append(c.path("tier").asText()).append(" | ").append(c.path("scored").asInt()).append(" | ").append(c.path("errors").asInt())
                    .append(" | ").append(pct(c.get("success_rate"))).append(" | ").append(ci(c.get("success_ci"))).append(" | ")
                    .append(delta(d)).append(" | ").append(d.isObject() && d.hasNonNull("relative") ? String.format(Locale.ROOT, "%+.1f%%", 100 * d.get("relative").asDouble()) : "–")
                    .append(" | ").append(p(d)).append(" | ").append(pct(c.get("refusal_rate"))).append(" | ").append(pct(c.get("false_refusal_rate")))
                    .append(" | ").append(pct(c.get("attack_success_rate"))).append(" | ").append(pct(c.get("tool_error_rate"))).append(" | ").append(num(c.get("avg_turns"), 1)).append(" | ")
                    .append(passK(c.get("pass_k"))).append(" |\n");
        }
        sb.append('\n');

        sb.append("## Failure taxonomy\n\nEach episode gets the first category whose rule holds.\n\n| category | episodes | rule |\n|---|---:|---|\n");
        JsonNode failures = s.path("failures");
        for (JsonNode f : data.path("taxonomy")) {
            String id = f.path("id").asText();
            sb.append("| ").append(id).append(" | ").append(failures.path(id).asInt(0)).append(" | ").append(md(f.path("rule").asText())).append(" |\n");
        }
        sb.append("\nTranscripts: open `report.html` (the trajectory browser), or `openagent show` on exported trajectories.\n");
        return sb.toString();
    }

    private static void row(StringBuilder sb, String k, String v) {
        sb.append("| ").append(k).append(" | ").append(v).append(" |\n");
    }

    private static String pct(JsonNode v) {
        return v == null || v.isNull() || v.isMissingNode() ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * v.asDouble());
    }

    private static String num(JsonNode v, int digits) {
        return v == null || v.isNull() ? "–" : String.format(Locale.ROOT, "%." + digits + "f", v.asDouble());
    }

    private static String ci(JsonNode c) {
        return c == null || !c.isArray() ? "–" : "[" + pct(c.get(0)) + ", " + pct(c.get(1)) + "]";
    }

    private static String delta(JsonNode d) {
        return d.isObject() ? String.format(Locale.ROOT, "%+.1f pp", 100 * d.path("absolute").asDouble()) : "–";
    }

    private static String p(JsonNode d) {
        return d.isObject() ? String.format(Locale.ROOT, "%.4g", d.path("p_value").asDouble()) : "–";
    }

    private static String passK(JsonNode pk) {
        if (pk == null || !pk.isObject() || pk.isEmpty()) return "–";
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : pk.properties()) parts.add("k=" + e.getKey() + " " + pct(e.getValue()));
        return String.join(", ", parts);
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Table cells must not break the table. */
    private static String md(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}
