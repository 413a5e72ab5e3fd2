package dev.openagent.server.view;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The same task static and shifted, side by side: which tools the agent was shown differently, whether the request
 * differs, and the two conversations aligned step by step (a step is one action of the agent and what answered it;
 * steps are aligned by their actions, so a step one side took in addition does not offset the steps after it), with
 * the first step where the actions diverged. A call of a renamed tool is the same action as the call of its
 * static name: the divergence is where the agent did something else, not where a name differs.
 *
 * @param divergence the index of the first pair of {@code steps} whose actions differ (or that only one side has), or -1
 */
public record EpisodeDiff(List<ToolPair> tools, Side<String> request, List<StepPair> steps, int divergence) {
    public EpisodeDiff {
        tools = List.copyOf(tools);
        steps = List.copyOf(steps);
    }

    /** A value on the static side and on the shifted side (either may be null: absent there). */
    public record Side<T>(T fixed, T shifted) {
        public boolean differs() { return !Objects.equals(fixed, shifted); }
    }

    /** How a tool shown in one episode relates to the other's. */
    public enum ToolChange { SAME, RENAMED, DESCRIPTION, SCHEMA, ONLY_STATIC, ONLY_SHIFTED }

    /** A static tool and the shifted tool it was paired with; {@code changes} lists every way they differ. */
    public record ToolPair(ToolSpec fixed, ToolSpec shifted, List<ToolChange> changes) {
        public ToolPair {
            changes = List.copyOf(changes);
        }

        public boolean renamed() { return changes.contains(ToolChange.RENAMED); }
    }

    /**
     * One step of an episode: the agent's action (tool calls, an answer, a question) and what came back before the
     * next action (tool results, the user's reply).
     */
    public record Step(Message action, List<Message> answers) {
        public Step {
            answers = List.copyOf(answers);
        }
    }

    /**
     * @param sameAction   whether both sides did the same thing (renamed tools mapped back to their static names)
     * @param answersDiffer whether what came back reads differently
     */
    public record StepPair(Step fixed, Step shifted, boolean sameAction, boolean answersDiffer) {}

    public static EpisodeDiff of(Trajectory fixed, Trajectory shifted) {
        List<ToolPair> tools = pairTools(fixed.tools(), shifted.tools());
        Map<String, String> staticName = new HashMap<>();
        for (ToolPair p : tools) if (p.fixed() != null && p.shifted() != null) staticName.put(p.shifted().name(), p.fixed().name());
        List<Step> a = steps(fixed.messages()), b = steps(shifted.messages());
        List<List<String>> sa = a.stream().map(x -> action(x.action(), Map.of())).toList();
        List<List<String>> sb = b.stream().map(y -> action(y.action(), staticName)).toList();
        List<StepPair> pairs = new ArrayList<>();
        for (int[] ij : align(sa, sb)) {
            Step x = ij[0] < 0 ? null : a.get(ij[0]), y = ij[1] < 0 ? null : b.get(ij[1]);
            boolean same = x != null && y != null && sa.get(ij[0]).equals(sb.get(ij[1]));
            boolean answers = x == null || y == null || !texts(x.answers()).equals(texts(y.answers()));
            pairs.add(new StepPair(x, y, same, answers));
        }
        int divergence = -1;
        for (int i = 0; i < pairs.size() && divergence < 0; i++) if (!pairs.get(i).sameAction()) divergence = i;
        return new EpisodeDiff(tools, new Side<>(firstUser(fixed.messages()), firstUser(shifted.messages())), pairs, divergence);
    }

    /** Above this many cells (steps of one side times the other's) the steps are aligned index to index. */
    static final int MAX_ALIGNMENT_CELLS = 4_000_000;

    /**
     * The steps aligned as pairs of indexes (-1: none on that side), by a longest common subsequence of their actions,
     * so that a step one side took in addition pairs with nothing and the steps after it pair with their equals. Between
     * two equal actions, the steps of either side left over are paired in order (the agent did something else there),
     * and those of the longer side stand alone.
     */
    static List<int[]> align(List<List<String>> a, List<List<String>> b) {
        int n = a.size(), m = b.size();
        List<int[]> out = new ArrayList<>();
        if ((long) n * m > MAX_ALIGNMENT_CELLS) {
            for (int i = 0; i < Math.max(n, m); i++) out.add(new int[]{i < n ? i : -1, i < m ? i : -1});
            return out;
        }
        int[][] lcs = new int[n + 1][m + 1];   // lcs[i][j]: of a from i and b from j
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                lcs[i][j] = a.get(i).equals(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        List<Integer> gapA = new ArrayList<>(), gapB = new ArrayList<>();
        int i = 0, j = 0;
        while (i < n && j < m) {
            if (a.get(i).equals(b.get(j))) {
                flush(out, gapA, gapB);
                out.add(new int[]{i++, j++});
            } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
                gapA.add(i++);
            } else {
                gapB.add(j++);
            }
        }
        while (i < n) gapA.add(i++);
        while (j < m) gapB.add(j++);
        flush(out, gapA, gapB);
        return out;
    }

    /** The steps between two equal actions: paired in order, the longer side's rest alone. */
    private static void flush(List<int[]> out, List<Integer> gapA, List<Integer> gapB) {
        for (int k = 0; k < Math.max(gapA.size(), gapB.size()); k++) {
            out.add(new int[]{k < gapA.size() ? gapA.get(k) : -1, k < gapB.size() ? gapB.get(k) : -1});
        }
        gapA.clear();
        gapB.clear();
    }

    /**
     * Pairs the tools: the same name first, then the same parameters schema (a renamed tool keeps its schema), then
     * what is left in the order shown (a tool renamed and reshaped at once); the rest is shown on one side only.
     */
    static List<ToolPair> pairTools(List<ToolSpec> fixed, List<ToolSpec> shifted) {
        Map<ToolSpec, ToolSpec> pairs = new LinkedHashMap<>();
        List<ToolSpec> left = new ArrayList<>(shifted);
        for (ToolSpec f : fixed) {
            left.stream().filter(s -> s.name().equals(f.name())).findFirst().ifPresent(s -> {
                pairs.put(f, s);
                left.remove(s);
            });
        }
        for (ToolSpec f : fixed) {
            if (pairs.containsKey(f)) continue;
            left.stream().filter(s -> s.parameters().equals(f.parameters())).findFirst().ifPresent(s -> {
                pairs.put(f, s);
                left.remove(s);
            });
        }
        for (ToolSpec f : fixed) {
            if (pairs.containsKey(f) || left.isEmpty()) continue;
            pairs.put(f, left.removeFirst());
        }
        List<ToolPair> out = new ArrayList<>();
        for (ToolSpec f : fixed) {
            ToolSpec s = pairs.get(f);
            if (s == null) {
                out.add(new ToolPair(f, null, List.of(ToolChange.ONLY_STATIC)));
                continue;
            }
            List<ToolChange> changes = new ArrayList<>();
            if (!f.name().equals(s.name())) changes.add(ToolChange.RENAMED);
            if (!f.description().equals(s.description())) changes.add(ToolChange.DESCRIPTION);
            if (!f.parameters().equals(s.parameters())) changes.add(ToolChange.SCHEMA);
            if (changes.isEmpty()) changes.add(ToolChange.SAME);
            out.add(new ToolPair(f, s, changes));
        }
        for (ToolSpec s : left) out.add(new ToolPair(null, s, List.of(ToolChange.ONLY_SHIFTED)));
        return out;
    }

    /** The conversation after the system prompt and the request, one step per action of the agent. */
    static List<Step> steps(List<Message> messages) {
        List<Step> out = new ArrayList<>();
        Message action = null;
        List<Message> answers = new ArrayList<>();
        for (Message m : messages) {
            if (m.role().equals("assistant")) {
                if (action != null) out.add(new Step(action, answers));
                action = m;
                answers = new ArrayList<>();
            } else if (action != null) {
                answers.add(m);
            }
        }
        if (action != null) out.add(new Step(action, answers));
        return out;
    }

    /** An action as compared: each call's static tool name and its arguments as JSON (spacing ignored), or the text. */
    private static List<String> action(Message m, Map<String, String> staticName) {
        if (m.toolCalls() == null) return List.of("text:" + Objects.toString(m.content(), ""));
        List<String> out = new ArrayList<>();
        for (Message.ToolCall c : m.toolCalls()) {
            String name = staticName.getOrDefault(c.function().name(), c.function().name());
            out.add(name + " " + canonical(c.function().arguments()));
        }
        return out;
    }

    private static String canonical(String arguments) {
        if (arguments == null) return "";
        try {
            JsonNode n = Json.parse(arguments);
            return n == null ? arguments : Json.write(n);
        } catch (RuntimeException e) {
            return arguments;   // malformed arguments compare as the text the agent wrote
        }
    }

    private static List<String> texts(List<Message> answers) {
        return answers.stream().map(m -> m.role() + ":" + Objects.toString(m.content(), "") + ":" + Objects.toString(m.error(), "")).toList();
    }

    private static String firstUser(List<Message> messages) {
        return messages.stream().filter(m -> m.role().equals("user")).map(Message::content).findFirst().orElse(null);
    }
}
