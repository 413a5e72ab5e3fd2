package dev.openagent.cli;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Before/after examples of every shift, generated from the code (docs/shifts.md is this output):
 * the same task with and without the shift, and what the agent is shown differently: query, system
 * prompt, tool list, the oracle's calls and the observations.
 */
public final class ShiftExamples {
    private ShiftExamples() {}

    /** What the agent saw and did in an oracle episode. */
    private record Run(Start start, List<String> calls, List<String> observations, String ending) {}

    private static Run run(Env env, TaskRequest request) {
        Start start = env.reset(request);
        AgentSession oracle = new OracleAgent().begin(start, env);
        List<String> calls = new ArrayList<>();
        List<String> obs = new ArrayList<>();
        Step last = null;
        String ending = "";
        do {
            Action a = oracle.act(last);
            switch (a) {
                case Action.CallTools c -> c.calls().forEach(x -> calls.add(x.name() + " " + x.arguments()));
                case Action.AskUser q -> calls.add("ask_user {\"question\":\"" + q.question() + "\"}");
                case Action.Answer x -> ending = "answer: " + x.text();
                case Action.Refuse x -> ending = "refusal: " + x.reason();
                case Action.Command c -> calls.add(c.text());
            }
            last = env.step(a);
            for (Observation o : last.observations()) obs.add((o.tool() == null ? "" : "[" + o.tool() + "] ") + o.text());
        } while (!last.done());
        return new Run(start, calls, obs, ending + "  -> " + (last.outcome().success() ? "success" : "FAILURE: " + last.outcome().detail()));
    }

    /** Markdown: one section per shift. */
    public static String markdown(Environment env, long seed) {
        StringBuilder sb = new StringBuilder();
        for (Shift s : ShiftCatalog.all()) {
            sb.append("### `").append(s.id()).append("` (").append(s.tier().id()).append(", ").append(s.dimension()).append(")\n\n");
            sb.append(s.description()).append("\n\n");
            if (!s.params().isEmpty()) {
                sb.append("Parameters: ");
                sb.append(String.join("; ", s.params().stream().map(p -> "`" + p.name() + "` (default `" + p.defaultValue() + "`"
                        + (p.values().isEmpty() ? "" : ", one of " + String.join(", ", p.values().stream().map(v -> "`" + v + "`").toList()))
                        + "): " + p.description()).toList()));
                sb.append("\n\n");
            }
            Optional<String> na = s.notApplicable(env.info()).or(() -> env.notApplicable(s.id()));
            if (na.isPresent()) {
                sb.append("Not applicable to `").append(env.id()).append("`: ").append(na.get()).append("\n\n");
                continue;
            }
            sb.append("Changes what the agent sees in ").append(Math.round(100 * coverage(env, s, 200, seed))).append("% of tasks (")
                    .append(env.id()).append(", 200 tasks of mixed difficulty).\n\n");
            sb.append(example(env, s, seed)).append('\n');
        }
        return sb.toString();
    }

    /** The share of tasks on which the shift changes the prompt, query, tools or any observation. */
    public static double coverage(Environment env, Shift s, int tasks, long seed) {
        ShiftStack stack = ShiftSpec.parseStack(s.id());
        Env base = env.create();
        Env shifted = stack.apply(env.create());
        int changed = 0;
        for (int i = 0; i < tasks; i++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed * 1_000_003L + i, 0);
            Run a = run(base, r);
            Run b = run(shifted, r);
            boolean same = a.start().equals(b.start()) && a.observations().equals(b.observations()) && a.calls().equals(b.calls());
            if (!same) changed++;
        }
        return (double) changed / tasks;
    }

    /** The example of one shift at its default parameters: the seed (of a few) where it shows most. */
    static String example(Environment env, Shift s, long seed) {
        ShiftStack stack = ShiftSpec.parseStack(s.id());
        String best = "";
        int bestScore = -1;
        for (int i = 0; i < 6; i++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed + i, i % 2 == 0 ? 3 : 0);
            Run before = run(env.create(), r);
            Run after = run(stack.apply(env.create()), r);
            StringBuilder sb = new StringBuilder();
            int score = 0;
            if (!before.start().query().equals(after.start().query())) {
                score += 3;
                sb.append("Query before: ").append(quote(before.start().query())).append('\n');
                sb.append("Query after:  ").append(quote(after.start().query())).append("\n\n");
            }
            String bp = before.start().systemPrompt();
            String ap = after.start().systemPrompt();
            if (!bp.equals(ap)) {
                score++;
                sb.append("System prompt ").append(ap.startsWith(bp) ? "adds" : "becomes").append(":\n\n```\n")
                        .append((ap.startsWith(bp) ? ap.substring(bp.length()) : ap).strip()).append("\n```\n\n");
            }
            List<String> bt = tools(before.start());
            List<String> at = tools(after.start());
            if (!bt.equals(at)) {
                score += 2;
                toolChanges(bt, at, sb);
                changedDescriptions(before.start(), after.start(), sb);
            } else if (!before.start().tools().equals(after.start().tools())) {
                // The same signatures, other descriptions (tool.bare).
                score += 2;
                sb.append("Tools (the same names and parameters):\n\n");
                changedDescriptions(before.start(), after.start(), sb);
                sb.append('\n');
            }
            int k = firstDifference(before.calls(), after.calls());
            if (k >= 0) {
                score++;
                sb.append("Oracle's calls before:\n\n```\n").append(String.join("\n", before.calls())).append("\n```\n\n");
                sb.append("Oracle's calls after:\n\n```\n").append(String.join("\n", after.calls())).append("\n```\n\n");
            }
            int o = firstDifference(bare(before.observations()), bare(after.observations()));
            if (o >= 0 && o < before.observations().size() && o < after.observations().size()) {
                score += 2;
                sb.append("An observation before:\n\n```\n").append(cut(before.observations().get(o))).append("\n```\n\n");
                sb.append("The same observation after:\n\n```\n").append(cut(after.observations().get(o))).append("\n```\n\n");
            }
            if (!before.ending().equals(after.ending())) sb.append("Ending before: ").append(before.ending()).append("  \nEnding after: ")
                    .append(after.ending()).append("\n");
            if (score > bestScore) {
                bestScore = score;
                best = sb.toString();
            }
        }
        return best.isEmpty() ? "(no visible change on these tasks)\n" : best;
    }

    /**
     * Tool list changes: tools keeping their name with changed parameters, added and removed ones;
     * when no name survives and the list keeps its length, renamed tools pairwise.
     */
    private static void toolChanges(List<String> before, List<String> after, StringBuilder sb) {
        List<String> lines = new ArrayList<>();
        List<String> beforeNames = before.stream().map(ShiftExamples::nameOf).toList();
        List<String> afterNames = after.stream().map(ShiftExamples::nameOf).toList();
        long kept = beforeNames.stream().filter(n -> !n.equals("ask_user") && afterNames.contains(n)).count();
        if (kept == 0 && before.size() == after.size()) {
            for (int i = 0; i < before.size(); i++) {
                if (!before.get(i).equals(after.get(i))) lines.add("`" + before.get(i) + "` -> `" + after.get(i) + "`");
            }
        } else {
            for (String t : after) {
                int i = beforeNames.indexOf(nameOf(t));
                if (i < 0) lines.add("added `" + t + "`");
                else if (!before.get(i).equals(t)) lines.add("`" + before.get(i) + "` -> `" + t + "`");
            }
            before.stream().filter(t -> !afterNames.contains(nameOf(t))).forEach(t -> lines.add("removed `" + t + "`"));
        }
        sb.append("Tools:\n\n");
        lines.stream().limit(6).forEach(l -> sb.append("- ").append(l).append('\n'));
        if (lines.size() > 6) sb.append("- ... and ").append(lines.size() - 6).append(" more\n");
        sb.append('\n');
    }

    private static String nameOf(String tool) { return tool.substring(0, tool.indexOf('(')); }

    /** Observation texts without the tool name in front. */
    private static List<String> bare(List<String> observations) {
        return observations.stream().map(o -> o.startsWith("[") && o.indexOf("] ") > 0 ? o.substring(o.indexOf("] ") + 2) : o).toList();
    }

    private static void changedDescriptions(Start before, Start after, StringBuilder sb) {
        int shown = 0;
        for (ToolSpec a : after.tools()) {
            if (shown >= 3) {
                sb.append("- ...\n");
                break;
            }
            ToolSpec b = before.tools().stream().filter(t -> t.name().equals(a.name())).findFirst().orElse(null);
            if (b != null && !b.description().equals(a.description())) {
                if (a.description().isBlank()) {
                    String was = b.description().length() > 100 ? b.description().substring(0, 100) + "..." : b.description();
                    sb.append("- `").append(a.name()).append("` has no description (it read ").append(quote(was)).append(")\n");
                } else {
                    sb.append("- `").append(a.name()).append("` now reads: ").append(quote(a.description())).append('\n');
                }
                shown++;
            } else if (b == null && !after.tools().isEmpty() && before.tools().stream().noneMatch(t -> t.description().equals(a.description()))) {
                sb.append("- new `").append(a.name()).append("`: ").append(quote(a.description())).append('\n');
                shown++;
            }
        }
        sb.append('\n');
    }

    private static List<String> tools(Start s) {
        return s.tools().stream().map(t -> t.name() + "(" + String.join(", ", Schemas.params(t.parameters())) + ")").toList();
    }

    private static int firstDifference(List<String> a, List<String> b) {
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            if (i >= a.size() || i >= b.size() || !a.get(i).equals(b.get(i))) return i;
        }
        return -1;
    }

    private static String cut(String s) {
        return s.length() <= 700 ? s : s.substring(0, 697) + "...";
    }

    private static String quote(String s) { return "\"" + s + "\""; }
}
