package dev.openagent.results;

import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.List;

/**
 * What the task's reference solution needed, kept with each episode for the failure taxonomy:
 * the number of calls of the gold plan and the tools it used (as the innermost layer names them).
 */
public record GoldFacts(int calls, List<String> tools) {
    public static final GoldFacts NONE = new GoldFacts(0, List.of());

    public GoldFacts {
        tools = List.copyOf(tools);
    }

    public static GoldFacts of(Task task) {
        GoldPlan plan = task.plan();
        if (plan.refuse()) return NONE;
        return new GoldFacts(plan.calls().size(), plan.calls().stream().map(GoldPlan.Call::tool).distinct().toList());
    }
}
