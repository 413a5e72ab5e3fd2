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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text-command counterpart of {@link StaticReplayAgent}: it replays the task's command script with
 * the verbs of the static help text, and reads a completion code from the prose as the static house says it.
 */
final class StaticCommandAgent implements Agent {
    private static final Pattern CODE = Pattern.compile("Completion code: ([A-Z]+-[A-Z0-9]+)");

    @Override
    public String name() { return "static-commands"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        GoldPlan plan = env.task().plan();
        List<JsonNode> results = new ArrayList<>();
        return new AgentSession() {
            private int issued;

            @Override
            public Action act(Step last) {
                if (issued > 0) {
                    Observation o = last.observations().isEmpty() ? null : last.observations().getFirst();
                    if (o == null || o.isError()) return new Action.Answer("I could not do it.");
                    Matcher m = CODE.matcher(o.text());
                    results.add(m.find() ? Json.object().put("completion_code", m.group(1)) : null);
                }
                try {
                    if (issued < plan.calls().size()) return new Action.Command(plan.calls().get(issued++).resolve(results).path("text").asText());
                    return new Action.Answer(plan.renderAnswer(results));
                } catch (IllegalStateException missing) {
                    return new Action.Answer("The result did not have what I expected.");
                }
            }
        };
    }
}
