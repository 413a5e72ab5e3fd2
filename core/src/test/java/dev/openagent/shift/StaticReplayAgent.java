package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An agent that learned the static environment by heart: it replays the task's gold plan with the
 * base tool names and parameters and reads results as the JSON the static environment returns (in a
 * text-command environment: the command script with the verbs of the static help text, reading a
 * completion code from the prose as the static house says it).
 * It is what "symbolic anchoring" looks like, and what shifts must break.
 */
final class StaticReplayAgent implements Agent {
    private static final Pattern CODE = Pattern.compile("Completion code: ([A-Z]+-[A-Z0-9]+)");

    /** The plan to replay, or null: the task's as the environment states it at the start. */
    private final GoldPlan fixed;
    /** The tool it calls for a tool of the plan, given what it is shown (by default the plan's own name). */
    private final java.util.function.BiFunction<Start, String, String> toolFor;

    StaticReplayAgent() {
        this(null, (start, tool) -> tool);
    }

    /** Replays this plan (the static task's) whatever the environment states. */
    StaticReplayAgent(GoldPlan plan) {
        this(plan, (start, tool) -> tool);
    }

    /** The static replay with each tool chosen otherwise (by its static place in the list: CrowdedToolsTest). */
    StaticReplayAgent(java.util.function.BiFunction<Start, String, String> toolFor) {
        this(null, toolFor);
    }

    private StaticReplayAgent(GoldPlan plan, java.util.function.BiFunction<Start, String, String> toolFor) {
        this.fixed = plan;
        this.toolFor = toolFor;
    }

    @Override
    public String name() { return "static-replay"; }

    @Override
    public AgentSession begin(Start start, Env env) {
        GoldPlan plan = fixed != null ? fixed : env.task().plan();
        boolean text = env.info().iface() == Interface.TEXT_COMMAND;
        List<JsonNode> results = new ArrayList<>();
        return new AgentSession() {
            private int issued;

            @Override
            public Action act(Step last) {
                if (issued > 0) {
                    String id = "c" + (issued - 1);
                    Observation o = text ? last.observations().stream().findFirst().orElse(null)
                            : last.observations().stream().filter(x -> id.equals(x.callId())).findFirst().orElse(null);
                    if (o == null || o.isError()) return new Action.Answer("I could not do it.");
                    if (text) {
                        Matcher m = CODE.matcher(o.text());
                        results.add(m.find() ? Json.object().put("completion_code", m.group(1)) : null);
                    } else {
                        try {
                            results.add(Json.parse(o.text()));
                        } catch (RuntimeException notJson) {
                            return new Action.Answer("I could not read the result.");
                        }
                    }
                }
                try {
                    if (issued < plan.calls().size()) {
                        GoldPlan.Call c = plan.calls().get(issued);
                        JsonNode args = c.resolve(results);
                        String id = "c" + (issued++);
                        return text ? new Action.Command(args.path("text").asText()) : Action.CallTools.of(id, toolFor.apply(start, c.tool()), Json.write(args));
                    }
                    return new Action.Answer(plan.renderAnswer(results));
                } catch (IllegalStateException missing) {
                    return new Action.Answer("The result did not have what I expected.");
                }
            }
        };
    }
}
