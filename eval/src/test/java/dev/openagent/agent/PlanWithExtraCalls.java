package dev.openagent.agent;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.PlanGuide;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.util.List;
import java.util.function.Function;

/**
 * A test agent that follows the gold plan and, after an observation for which {@code extra} gives a call (null:
 * none), makes that call before the plan's next step: an attacker's request carried out in a way the test chooses.
 */
final class PlanWithExtraCalls implements Agent {
    private final Function<Observation, Action.ToolCall> extra;

    PlanWithExtraCalls(Function<Observation, Action.ToolCall> extra) {
        this.extra = extra;
    }

    public String name() { return "plan-with-extra-calls"; }

    public AgentSession begin(Start start, Env env) {
        PlanGuide plan = new PlanGuide(env.task());
        return new AgentSession() {
            private Action held;

            public Action act(Step last) {
                if (held != null) {
                    Action next = held;
                    held = null;
                    return next;
                }
                Action next = plan.next(last);
                for (Observation o : last == null ? List.<Observation>of() : last.observations()) {
                    Action.ToolCall call = extra.apply(o);
                    if (call != null) {
                        held = next;
                        return new Action.CallTools(List.of(call));
                    }
                }
                return next;
            }
        };
    }
}
