package dev.openagent.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.framework.AgentCrash;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Assigns each episode its {@link Failure} category: the first rule, in declaration order, that holds. */
public final class Taxonomy {
    /** Identical calls at least this often count as a loop. */
    static final int LOOP_REPEATS = 3;

    private Taxonomy() {}

    public static Failure classify(EpisodeResult r) {
        return classify(r.outcome(), r.trajectory(), r.gold());
    }

    public static Failure classify(Outcome outcome, Trajectory t, GoldFacts gold) {
        if (outcome.end() == Outcome.End.INFRA_ERROR || t == null) return Failure.INFRA_ERROR;
        if (outcome.end() == Outcome.End.UNSCORED) return Failure.UNSCORED;
        if (outcome.success()) return Failure.SUCCESS;
        Calls calls = Calls.of(t.messages());
        if (AgentCrash.crashed(t)) {
            // frameworks throw on a tool name they do not know: the hallucination is the cause
            return calls.codes.contains(ToolError.Code.UNKNOWN_TOOL.name()) ? Failure.HALLUCINATED_TOOL : Failure.AGENT_ERROR;
        }
        if (outcome.end() == Outcome.End.REFUSED && t.solvable()) return Failure.FALSE_REFUSAL;
        if (outcome.end() == Outcome.End.ANSWERED && !t.solvable()) return Failure.FORCED_COMPLETION;

        if (outcome.end() == Outcome.End.STEP_LIMIT) return calls.maxRepeats >= LOOP_REPEATS ? Failure.LOOP : Failure.STEP_LIMIT;
        if (calls.codes.contains(ToolError.Code.UNKNOWN_TOOL.name())) return Failure.HALLUCINATED_TOOL;
        if (!calls.unrepairedArgumentErrors.isEmpty()) return Failure.INVALID_ARGUMENTS;
        if (calls.lastTurnHadError) return Failure.IGNORED_ERROR;
        if (gold.calls() > 0 && calls.successful < gold.calls()) return Failure.PREMATURE_ANSWER;
        Set<String> visible = new HashSet<>();
        for (ToolSpec s : t.tools()) visible.add(s.name());
        for (String tool : gold.tools()) {
            if (visible.contains(tool) && !calls.succeededTools.contains(tool)) return Failure.WRONG_TOOL;
        }
        return Failure.WRONG_ANSWER;
    }

    /** What the agent's tool calls did, read from the chat messages. */
    private static final class Calls {
        final Set<String> codes = new HashSet<>();
        final Set<String> succeededTools = new HashSet<>();
        final Set<String> unrepairedArgumentErrors = new HashSet<>();
        int successful;
        int maxRepeats;
        boolean lastTurnHadError;

        static Calls of(List<Message> messages) {
            Calls c = new Calls();
            Map<String, Integer> repeats = new HashMap<>();
            Map<String, String> toolOfCall = new HashMap<>();
            boolean turnHadError = false;
            for (Message m : messages) {
                if (m.role().equals("assistant")) {
                    c.lastTurnHadError = turnHadError;
                    turnHadError = false;
                    if (m.toolCalls() == null) continue;
                    for (Message.ToolCall call : m.toolCalls()) {
                        String name = call.function().name();
                        toolOfCall.put(call.id(), name);
                        if (Protocol.ASK_USER.equals(name)) continue;
                        String key = name + "\u0000" + canonical(call.function().arguments());
                        c.maxRepeats = Math.max(c.maxRepeats, repeats.merge(key, 1, Integer::sum));
                    }
                } else if (m.role().equals("tool")) {
                    String name = m.name() != null ? m.name() : toolOfCall.getOrDefault(m.toolCallId(), "");
                    if (Protocol.ASK_USER.equals(name)) continue;
                    if (m.error() != null) {
                        c.codes.add(m.error());
                        turnHadError = true;
                        if (m.error().equals(ToolError.Code.MALFORMED_ARGUMENTS.name()) || m.error().equals(ToolError.Code.INVALID_ARGUMENTS.name())) {
                            c.unrepairedArgumentErrors.add(name);
                        }
                    } else {
                        c.successful++;
                        c.succeededTools.add(name);
                        c.unrepairedArgumentErrors.remove(name);
                    }
                }
            }
            return c;
        }

        /** Arguments compared by meaning: JSON re-serialised with sorted keys, anything else verbatim. */
        private static String canonical(String arguments) {
            try {
                JsonNode n = Json.MAPPER.readTree(arguments);
                return n == null ? arguments : Json.write(Json.MAPPER.treeToValue(n, Object.class));
            } catch (JsonProcessingException | RuntimeException e) {
                return arguments;
            }
        }
    }
}
