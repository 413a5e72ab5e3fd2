package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.util.ArrayList;
import java.util.List;

/**
 * An agent that learned the static environment by heart: it replays the task's gold plan with the
 * base tool names and parameters and reads results as the JSON the static environment returns.
 * It is what "symbolic anchoring" looks like, and what shifts must break.
 */
final class StaticReplayAgent implements Agent {
    @Override
    public String name() { return "static-replay"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        GoldPlan plan = env.task().plan();
        List<JsonNode> results = new ArrayList<>();
        return new AgentSession() {
            private int issued;

            @Override
            public Action act(Step last) {
                if (issued > 0) {
                    Observation o = last.observations().stream().filter(x -> ("c" + (issued - 1)).equals(x.callId())).findFirst().orElse(null);
                    if (o == null || o.isError()) return new Action.Answer("I could not do it.");
                    try {
                        results.add(Json.parse(o.text()));
                    } catch (RuntimeException notJson) {
                        return new Action.Answer("I could not read the result.");
                    }
                }
                try {
                    if (issued < plan.calls().size()) {
                        GoldPlan.Call c = plan.calls().get(issued);
                        return Action.CallTools.of("c" + (issued++), c.tool(), Json.write(c.resolve(results)));
                    }
                    return new Action.Answer(plan.renderAnswer(results));
                } catch (IllegalStateException missing) {
                    return new Action.Answer("The result did not have what I expected.");
                }
            }
        };
    }
}
