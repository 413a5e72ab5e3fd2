package dev.openagent.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvSpec;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs episodes of a {@link Domain}: dispatches tool calls, turns every kind of bad input into an
 * error observation, answers {@code ask_user} from the simulated user, checks the ending and
 * enforces the step limit.
 */
public final class FunctionCallEnv<W> implements Env {
    /** Turns an episode may take before it is cut off. */
    public static final int DEFAULT_MAX_STEPS = 30;
    /** Raw argument text longer than this is refused before parsing. */
    public static final int MAX_ARGUMENT_CHARS = 8_192;

    private final Domain<W> domain;
    private final EnvironmentInfo info;
    private final Map<String, Tool<W>> tools = new LinkedHashMap<>();
    private final List<ToolSpec> specs;
    private final String systemPrompt;
    private final int maxSteps;

    private W world;
    private Task task;
    private long seed;
    private int steps;
    private Outcome outcome;

    public FunctionCallEnv(Domain<W> domain) {
        this(domain, DEFAULT_MAX_STEPS);
    }

    public FunctionCallEnv(Domain<W> domain, int maxSteps) {
        this.domain = domain;
        this.maxSteps = maxSteps;
        List<ToolSpec> shown = new ArrayList<>();
        for (Tool<W> t : domain.tools()) {
            if (tools.put(t.name(), t) != null) throw new IllegalArgumentException("duplicate tool " + t.name());
            shown.add(t.spec());
        }
        shown.add(Protocol.ASK_USER_TOOL);
        this.specs = List.copyOf(shown);
        this.info = infoOf(domain);
        this.systemPrompt = Protocol.systemPrompt(domain.rules(), Interface.FUNCTION_CALL);
    }

    public static EnvironmentInfo infoOf(Domain<?> domain) {
        return new EnvironmentInfo(domain.id(), domain.description(), Interface.FUNCTION_CALL, domain.difficulties(),
                domain.tools().stream().map(Tool::name).toList());
    }

    @Override
    public EnvSpec spec() { return new EnvSpec(domain.id(), List.of()); }

    @Override
    public EnvironmentInfo info() { return info; }

    @Override
    public Start reset(TaskRequest request) {
        info.checkDifficulty(request);
        seed = Seeds.episode(request);
        world = domain.world(request.split(), seed);
        task = domain.task(world, request, seed);
        steps = 0;
        outcome = null;
        return new Start(systemPrompt, task.query(), specs);
    }

    @Override
    public Step step(Action action) {
        if (task == null) throw new IllegalStateException("step before reset");
        if (outcome != null) {
            return Step.end(List.of(Observation.env("The episode is over.", null)), outcome);
        }
        steps++;
        Step result = switch (action) {
            case Action.CallTools c -> {
                List<Observation> out = new ArrayList<>(c.calls().size());
                for (Action.ToolCall call : c.calls()) out.add(call(call));
                yield Step.of(out);
            }
            case Action.AskUser q -> Step.of(List.of(Observation.user(SimulatedUser.reply(task.userFacts(), q.question()))));
            case Action.Command cmd -> Step.of(List.of(new Observation(Observation.Source.ENV, null, null,
                    "Error [UNSUPPORTED_ACTION]: this environment takes JSON tool calls, not text commands.", null,
                    ToolError.of(ToolError.Code.UNSUPPORTED_ACTION, "text command in a function-call environment"))));
            case Action.Answer a -> finish(a);
            case Action.Refuse r -> finish(r);
        };
        if (!result.done() && steps >= maxSteps) {
            outcome = new Outcome(false, Outcome.End.STEP_LIMIT, "step limit of " + maxSteps + " reached");
            return Step.end(result.observations(), outcome);
        }
        return result;
    }

    private Step finish(Action ending) {
        outcome = Outcome.judge(task, ending, answer -> domain.check(task, world, answer));
        return Step.end(List.of(), outcome);
    }

    private Observation call(Action.ToolCall call) {
        String name = call.name();
        if (Protocol.ASK_USER.equals(name)) {
            JsonNode q = parseQuietly(call.arguments());
            String question = q != null && q.hasNonNull("question") ? q.get("question").asText() : call.arguments();
            return Observation.tool(call.id(), name, SimulatedUser.reply(task.userFacts(), question), null);
        }
        Tool<W> tool = tools.get(name);
        if (tool == null) {
            return Observation.toolError(call.id(), name, ToolError.of(ToolError.Code.UNKNOWN_TOOL,
                    "no tool named '" + abbreviate(name) + "'. Available tools: " + String.join(", ", toolNames())));
        }
        if (call.arguments().length() > MAX_ARGUMENT_CHARS) {
            return Observation.toolError(call.id(), name, ToolError.of(ToolError.Code.INVALID_ARGUMENTS,
                    "arguments are too long (" + call.arguments().length() + " > " + MAX_ARGUMENT_CHARS + " characters)"));
        }
        JsonNode args;
        try {
            args = call.arguments().isBlank() ? Json.object() : Json.MAPPER.readTree(call.arguments());
        } catch (JsonProcessingException e) {
            return Observation.toolError(call.id(), name, ToolError.of(ToolError.Code.MALFORMED_ARGUMENTS,
                    "arguments are not valid JSON: " + e.getOriginalMessage()));
        }
        try {
            JsonNode result = tool.behaviour().call(world, tool.params().validate(args));
            return Observation.tool(call.id(), name, Json.write(result), result);
        } catch (ToolFailure f) {
            return Observation.toolError(call.id(), name, f.error());
        }
    }

    private List<String> toolNames() {
        return specs.stream().map(ToolSpec::name).toList();
    }

    private static JsonNode parseQuietly(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    @Override
    public Task task() {
        if (task == null) throw new IllegalStateException("no episode: call reset first");
        return task;
    }

    @Override
    public Guide guide() { return new PlanGuide(task()); }

    @Override
    public long episodeSeed() { return seed; }

    /** The world of the current episode (tests and checkers). */
    public W world() { return world; }

    public Domain<W> domain() { return domain; }
}
