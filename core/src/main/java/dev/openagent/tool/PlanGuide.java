package dev.openagent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;

/**
 * Follows a task's gold plan one call per turn, filling data dependencies from the results it
 * gets back, then answers (or refuses, when the plan says so). If a step goes wrong it answers
 * with what went wrong, so the episode fails loudly instead of looping.
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
        if (plan.refuse()) return new Action.Refuse(plan.answerTemplate());
        if (issued > results.size()) {
            String id = callId(issued - 1);
            Observation o = last == null ? null : last.observations().stream()
                    .filter(x -> id.equals(x.callId())).findFirst().orElse(null);
            if (o == null) return new Action.Answer("oracle: no result for " + id);
            if (o.isError()) return new Action.Answer("oracle: plan call " + (issued - 1) + " failed: " + o.text());
            results.add(o.payload());
        }
        if (issued < plan.calls().size()) {
            GoldPlan.Call call = plan.calls().get(issued);
            String args = Json.write(call.resolve(results));
            return Action.CallTools.of(callId(issued++), call.tool(), args);
        }
        return new Action.Answer(plan.renderAnswer(results));
    }

    static String callId(int i) {
        return "call_" + i;
    }
}
