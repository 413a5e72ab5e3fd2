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
 * gets back, then answers. A refusal plan's calls are probes that show the task is impossible:
 * their failures are expected, and the guide refuses after them (or as soon as a probe it needs
 * returned nothing). If a step of an answer plan goes wrong it answers with what went wrong, so
 * the episode fails loudly instead of looping.
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
            String id = callId(issued - 1);
            Observation o = last == null ? null : last.observations().stream()
                    .filter(x -> id.equals(x.callId())).findFirst().orElse(null);
            if (o == null) return ending("oracle: no result for " + id);
            if (o.isError() && !plan.refuse()) return new Action.Answer("oracle: plan call " + (issued - 1) + " failed: " + o.text());
            results.add(o.isError() ? null : o.payload());
        }
        if (issued < plan.calls().size()) {
            GoldPlan.Call call = plan.calls().get(issued);
            if (plan.refuse() && call.dependsOn().stream().anyMatch(i -> results.get(i) == null)) return ending("");
            String args;
            try {
                args = Json.write(call.resolve(results));
            } catch (IllegalStateException missing) {
                if (plan.refuse()) return ending(""); // a probe found nothing to follow: the task is impossible
                throw missing;
            }
            return Action.CallTools.of(callId(issued++), call.tool(), args);
        }
        return ending("");
    }

    private Action ending(String problem) {
        if (plan.refuse()) return new Action.Refuse(plan.answerTemplate());
        return new Action.Answer(problem.isEmpty() ? plan.renderAnswer(results) : problem);
    }

    static String callId(int i) {
        return "call_" + i;
    }
}
