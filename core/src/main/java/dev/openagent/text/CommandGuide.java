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
 * answer template, then answers (or refuses, when the plan says so). If a command fails it answers
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
        if (plan.refuse()) return new Action.Refuse(plan.answerTemplate());
        if (issued > results.size()) {
            Observation o = last == null || last.observations().isEmpty() ? null : last.observations().getFirst();
            if (o == null) return new Action.Answer("oracle: no observation for command " + (issued - 1));
            if (o.isError()) return new Action.Answer("oracle: plan command " + (issued - 1) + " failed: " + o.text());
            results.add(o.payload());
        }
        if (issued < plan.calls().size()) {
            GoldPlan.Call call = plan.calls().get(issued++);
            return new Action.Command(call.resolve(results).path("text").asText());
        }
        return new Action.Answer(plan.renderAnswer(results));
    }

    /** A plan step that sends one command. */
    public static GoldPlan.Call command(String text) {
        com.fasterxml.jackson.databind.node.ObjectNode args = dev.openagent.json.Json.object();
        args.put("text", text);
        return new GoldPlan.Call(TextCommandEnv.COMMAND, args);
    }
}
