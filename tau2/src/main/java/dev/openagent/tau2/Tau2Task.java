package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * One task of tau2's {@code tasks.json}, as far as this environment reads it: the user scenario (why the user calls,
 * what they know and do not know), the gold actions, the information the agent must communicate and the
 * natural-language assertions (which need a model judge: reported as not scored).
 *
 * @param split the tau2 split the task is in ({@code train} or {@code test}), null when in neither
 */
record Tau2Task(String id, String split, String reasonForCall, String knownInfo, String unknownInfo, List<Action> actions,
                List<String> communicateInfo, List<String> nlAssertions) {

    /** A gold action: a tool and its arguments. */
    record Action(String name, ObjectNode arguments) {}

    Tau2Task {
        actions = List.copyOf(actions);
        communicateInfo = List.copyOf(communicateInfo);
        nlAssertions = List.copyOf(nlAssertions);
    }

    /**
     * Reads one task; {@code at} names it in errors ("tasks.json: task 12").
     *
     * @throws BadTau2Data for a task this environment cannot run (no scenario, an initial state to set up, a
     *                     malformed action)
     */
    static Tau2Task read(JsonNode t, String split, String at) {
        String id = t.path("id").asText(null);
        if (id == null || id.isBlank()) throw new BadTau2Data(at + ": no 'id'");
        JsonNode init = t.path("initial_state");
        if (!init.isMissingNode() && !init.isNull()) {
            throw new BadTau2Data(at + ": has an initial_state (initialization data, actions or a message history), which this environment does not set up");
        }
        JsonNode ins = t.path("user_scenario").path("instructions");
        String reason;
        String known = null;
        String unknown = null;
        if (ins.isTextual()) {
            reason = ins.asText();
        } else if (ins.isObject()) {
            reason = text(ins.get("reason_for_call"));
            known = text(ins.get("known_info"));
            unknown = text(ins.get("unknown_info"));
        } else {
            throw new BadTau2Data(at + ": no user_scenario.instructions");
        }
        if (reason == null || reason.isBlank()) throw new BadTau2Data(at + ": no user_scenario.instructions.reason_for_call");
        JsonNode criteria = t.path("evaluation_criteria");
        List<Action> actions = new ArrayList<>();
        JsonNode acts = criteria.path("actions");
        for (int i = 0; i < acts.size(); i++) {
            JsonNode a = acts.get(i);
            if (!a.path("name").isTextual()) throw new BadTau2Data(at + ", action " + i + ": no tool name");
            String requestor = a.path("requestor").asText("assistant");
            if (!requestor.equals("assistant")) throw new BadTau2Data(at + ", action " + i + ": requested by '" + requestor + "'; retail's actions are the agent's");
            JsonNode args = a.path("arguments");
            if (!args.isMissingNode() && !args.isNull() && !args.isObject()) throw new BadTau2Data(at + ", action " + i + ": arguments must be an object");
            actions.add(new Action(a.get("name").asText(), args.isObject() ? (ObjectNode) args : dev.openagent.json.Json.object()));
        }
        return new Tau2Task(id, split, reason, known, unknown, actions, texts(criteria.path("communicate_info")), texts(criteria.path("nl_assertions")));
    }

    /** tau2's scenario texts use "None" and "." for nothing. */
    private static String text(JsonNode n) {
        if (n == null || !n.isTextual()) return null;
        String s = n.asText().strip();
        return s.isEmpty() || s.equals("None") || s.equals(".") ? null : s;
    }

    private static List<String> texts(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isArray()) n.forEach(x -> out.add(x.asText()));
        return out;
    }
}
