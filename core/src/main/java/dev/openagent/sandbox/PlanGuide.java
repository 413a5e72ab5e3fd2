package dev.openagent.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * Follows a task's gold plan one step per turn, filling data dependencies from the results it gets
 * back, then answers. A step is a tool call, or a text command ({@link GoldPlan#COMMAND}: its answer
 * is the turn's first observation, whose payload the plan may read). A refusal plan's steps are probes
 * that show the task is impossible: their failures are expected, and the guide refuses after them (or
 * as soon as a probe it needs returned nothing). If a step of an answer plan goes wrong it answers with
 * what went wrong, so the episode fails loudly instead of looping.
 */
public final class PlanGuide implements Guide {
    private final GoldPlan plan;
    private final List<JsonNode> results = new ArrayList<>();
    private int issued;

    public PlanGuide(Task task) {
        this.plan = task.plan();
    }

    @Override
    public Action next(Step last) {
        if (issued > results.size()) {
            GoldPlan.Call previous = plan.calls().get(issued - 1);
            Observation o = answerTo(previous, issued - 1, last);
            if (o == null) {
                return ending(previous.isCommand() ? "oracle: no observation for command " + (issued - 1) : "oracle: no result for " + callId(issued - 1));
            }
            if (o.isError() && !plan.refuse()) {
                return new Action.Answer("oracle: plan " + (previous.isCommand() ? "command " : "call ") + (issued - 1) + " failed: " + o.text());
            }
            results.add(o.isError() ? null : o.payload());
        }
        if (issued < plan.calls().size()) {
            GoldPlan.Call call = plan.calls().get(issued);
            if (call.isCommand()) {
                // A refusal plan's commands are probes sent as written; an answer plan's may read earlier payloads.
                issued++;
                return new Action.Command((plan.refuse() ? call.args() : call.resolve(results)).path("text").asText());
            }
            if (plan.refuse() && call.dependsOn().stream().anyMatch(i -> results.get(i) == null)) return ending("");
            String args;
            try {
                args = Json.write(call.resolve(results));
            } catch (IllegalStateException missing) {
                if (plan.refuse()) return ending(""); // a probe found nothing to follow: the task is impossible
                // A reference the results do not hold (a plan written for other results): the episode fails saying so.
                return new Action.Answer("oracle: plan call " + issued + " (" + call.tool() + ") cannot be made: " + missing.getMessage());
            }
            return Action.CallTools.of(callId(issued++), call.tool(), args);
        }
        return ending("");
    }

    /** The observation answering step i: its call id's, or the first one for a command. */
    private static Observation answerTo(GoldPlan.Call step, int i, Step last) {
        if (last == null || last.observations().isEmpty()) return null;
        if (step.isCommand()) return last.observations().getFirst();
        String id = callId(i);
        return last.observations().stream().filter(x -> id.equals(x.callId())).findFirst().orElse(null);
    }

    private Action ending(String problem) {
        if (plan.refuse()) return new Action.Refuse(plan.answerTemplate());
        if (!problem.isEmpty()) return new Action.Answer(problem);
        try {
            return new Action.Answer(plan.renderAnswer(results));
        } catch (IllegalStateException missing) {
            return new Action.Answer("oracle: the plan's answer cannot be written: " + missing.getMessage());
        }
    }

    static String callId(int i) {
        return "call_" + i;
    }
}
