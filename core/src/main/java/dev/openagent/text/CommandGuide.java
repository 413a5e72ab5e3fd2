package dev.openagent.text;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;

/**
 * Follows a text task's gold plan: one command per turn, keeping each observation's payload for the
 * answer template, then answers; a refusal plan's commands are probes that show the task is impossible
 * (their failures are expected), followed by the refusal. If a command of an answer plan fails it answers
 * with what went wrong, so the episode fails loudly instead of looping.
 */
public final class CommandGuide implements Guide {
    private final GoldPlan plan;
    private final List<JsonNode> results = new ArrayList<>();
    private int issued;

    public CommandGuide(Task task) {
        this.plan = task.plan();
    }

    @Override
    public Action next(Step last) {
        if (issued > results.size()) {
            Observation o = last == null || last.observations().isEmpty() ? null : last.observations().getFirst();
            if (o == null) return ending("oracle: no observation for command " + (issued - 1));
            if (o.isError() && !plan.refuse()) return new Action.Answer("oracle: plan command " + (issued - 1) + " failed: " + o.text());
            results.add(o.isError() ? null : o.payload());
        }
        if (plan.refuse()) {
            // The probes that show the task is impossible (their failures are expected), then the refusal.
            if (issued < plan.calls().size()) return new Action.Command(plan.calls().get(issued++).args().path("text").asText());
            return new Action.Refuse(plan.answerTemplate());
        }
        if (issued < plan.calls().size()) {
            GoldPlan.Call call = plan.calls().get(issued++);
            return new Action.Command(call.resolve(results).path("text").asText());
        }
        return new Action.Answer(plan.renderAnswer(results));
    }

    private Action ending(String problem) {
        return plan.refuse() ? new Action.Refuse(plan.answerTemplate()) : new Action.Answer(problem);
    }

    /** A plan step that sends one command. */
    public static GoldPlan.Call command(String text) {
        com.fasterxml.jackson.databind.node.ObjectNode args = dev.openagent.json.Json.object();
        args.put("text", text);
        return new GoldPlan.Call(TextCommandEnv.COMMAND, args);
    }
}
