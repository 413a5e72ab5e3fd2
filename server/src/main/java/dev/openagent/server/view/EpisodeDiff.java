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
 * differs, and the two conversations aligned step by step (a step is one action of the agent and what answered it),
 * with the first step where the actions diverged. A call of a renamed tool is the same action as the call of its
 * static name: the divergence is where the agent did something else, not where a name differs.
 *
 * @param divergence the index of the first step whose actions differ (or that only one side has), or -1
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
        List<StepPair> pairs = new ArrayList<>();
        int divergence = -1;
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            Step x = i < a.size() ? a.get(i) : null, y = i < b.size() ? b.get(i) : null;
            boolean same = x != null && y != null && action(x.action(), Map.of()).equals(action(y.action(), staticName));
            boolean answers = x == null || y == null || !texts(x.answers()).equals(texts(y.answers()));
            pairs.add(new StepPair(x, y, same, answers));
            if (!same && divergence < 0) divergence = i;
        }
        return new EpisodeDiff(tools, new Side<>(firstUser(fixed.messages()), firstUser(shifted.messages())), pairs, divergence);
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
