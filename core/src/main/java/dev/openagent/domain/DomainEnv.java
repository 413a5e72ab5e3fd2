package dev.openagent.domain;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.EnvSpec;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.PlanGuide;
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
 * Runs episodes of any {@link Domain}, whatever its surface: generates the world and the task on
 * reset, dispatches tool calls or text commands, answers the user's side of the protocol from the
 * simulated user, turns every kind of bad input into an error observation, checks the ending and
 * enforces the step limit. An ending may also come as a text command: {@code FINAL ANSWER: ...} or
 * {@code CANNOT COMPLETE: ...} ({@link Protocol#command}), as the system prompt tells agents to write it.
 */
public final class DomainEnv<W> implements Env {
    /** Raw argument text longer than this is refused before parsing. */
    public static final int MAX_ARGUMENT_CHARS = 8_192;
    /** Commands longer than this are refused unread. */
    public static final int MAX_COMMAND_CHARS = 300;
    /** The protocol command every text environment understands, added to its help text. */
    static final String ASK_HELP = "\n  " + Protocol.ASK_COMMAND + " <question>                    ask the user when a detail is missing or ambiguous";

    private final Domain<W> domain;
    private final EnvironmentInfo info;
    private final Map<String, Tool<W>> tools = new LinkedHashMap<>();
    private final List<ToolSpec> specs;
    private final String systemPrompt;
    private final int maxSteps;

    private W world;
    private Task task;
    private TaskRequest request;
    private long seed;
    private int steps;
    /** Turns granted this episode beyond {@link #maxSteps} by shift layers (see {@link Env#grantTurns}). */
    private int granted;
    private Outcome outcome;

    public DomainEnv(Domain<W> domain) {
        this(domain, domain.maxSteps());
    }

    public DomainEnv(Domain<W> domain, int maxSteps) {
        this.domain = domain;
        this.maxSteps = maxSteps;
        List<ToolSpec> shown = new ArrayList<>();
        if (domain.surface() instanceof Surface.FunctionCalls<W> f) {
            for (Tool<W> t : f.tools()) {
                if (tools.put(t.name(), t) != null) throw new IllegalArgumentException("duplicate tool " + t.name());
                shown.add(t.spec());
            }
            shown.add(Protocol.ASK_USER_TOOL);
        }
        this.specs = List.copyOf(shown);
        this.info = infoOf(domain);
        this.systemPrompt = Protocol.systemPrompt(domain.rules(), info.iface());
    }

    public static EnvironmentInfo infoOf(Domain<?> domain) {
        return new EnvironmentInfo(domain.id(), domain.description(), domain.surface().iface(), domain.difficulties(), domain.surface().names());
    }

    @Override
    public EnvSpec spec() { return new EnvSpec(domain.id(), List.of()); }

    @Override
    public EnvironmentInfo info() { return info; }

    @Override
    public Start reset(TaskRequest request) {
        info.checkDifficulty(request);
        seed = Seeds.episode(request);
        this.request = request;
        world = domain.world(request.split(), seed);
        task = domain.task(world, request, seed);
        steps = 0;
        granted = 0;
        outcome = null;
        return new Start(systemPrompt, task.query(), specs);
    }

    @Override
    public Step step(Action action) {
        if (task == null) throw new IllegalStateException("step before reset");
        if (outcome != null) return Step.end(List.of(Observation.env("The episode is over.", null)), outcome);
        steps++;
        Step result = switch (action) {
            case Action.CallTools c -> {
                List<Observation> out = new ArrayList<>(c.calls().size());
                for (Action.ToolCall call : c.calls()) out.add(call(call));
                yield Step.of(out);
            }
            case Action.Command c -> command(c);
            case Action.AskUser q -> Step.of(List.of(Observation.user(SimulatedUser.reply(task.userFacts(), q.question()))));
            case Action.Answer a -> finish(a);
            case Action.Refuse r -> finish(r);
        };
        if (!result.done() && steps >= limit()) {
            outcome = new Outcome(false, Outcome.End.STEP_LIMIT, "step limit of " + limit() + " reached");
            return Step.end(result.observations(), outcome);
        }
        return result;
    }

    /** This episode's step limit: the environment's and the turns granted, saturating (the proxy's is Integer.MAX_VALUE). */
    private int limit() {
        return (int) Math.min(Integer.MAX_VALUE, (long) maxSteps + granted);
    }

    @Override
    public void grantTurns(int turns) {
        if (turns < 0) throw new IllegalArgumentException("turns must not be negative: " + turns);
        granted = (int) Math.min(Integer.MAX_VALUE, (long) granted + turns);
    }

    private Step finish(Action ending) {
        outcome = Outcome.judge(task, ending, answer -> domain.check(task, world, answer));
        return Step.end(List.of(), outcome);
    }

    // ---------------------------------------------------------------- function calls

    private Observation call(Action.ToolCall call) {
        String name = call.name();
        if (Protocol.ASK_USER.equals(name)) {
            return Observation.tool(call.id(), name, SimulatedUser.reply(task.userFacts(), Protocol.question(call.arguments())), null);
        }
        if (domain.surface() instanceof Surface.TextCommands<W>) {
            return Observation.toolError(call.id(), name, ToolError.of(ToolError.Code.UNSUPPORTED_ACTION,
                    "this environment takes text commands, not tool calls; write a command such as 'help'"));
        }
        Tool<W> tool = tools.get(name);
        if (tool == null) {
            return Observation.toolError(call.id(), name, ToolError.of(ToolError.Code.UNKNOWN_TOOL,
                    "no tool named '" + abbreviate(name) + "'. Available tools: " + String.join(", ", specs.stream().map(ToolSpec::name).toList())));
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
            // A tool that answers in text (an MCP server's, a file's) is read as that text, not as a quoted JSON string.
            return Observation.tool(call.id(), name, result.isTextual() ? result.asText() : Json.write(result), result);
        } catch (ToolFailure f) {
            return Observation.toolError(call.id(), name, f.error());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    // ---------------------------------------------------------------- text commands

    private Step command(Action.Command c) {
        if (!(domain.surface() instanceof Surface.TextCommands<W> commands)) {
            return Step.of(List.of(new Observation(Observation.Source.ENV, null, null,
                    "Error [UNSUPPORTED_ACTION]: this environment takes JSON tool calls, not text commands.", null,
                    ToolError.of(ToolError.Code.UNSUPPORTED_ACTION, "text command in a function-call environment"))));
        }
        return switch (Protocol.command(c.text())) {
            case Action.Command cmd -> Step.of(List.of(command(commands, cmd.text())));
            case Action.Answer a -> finish(a);        // "FINAL ANSWER: ..." written as a message
            case Action.Refuse r -> finish(r);        // "CANNOT COMPLETE: ..." written as a message
            default -> throw new IllegalStateException();
        };
    }

    private Observation command(Surface.TextCommands<W> commands, String raw) {
        if (raw.length() > MAX_COMMAND_CHARS) {
            return error(Reply.malformed("That command is too long (" + raw.length() + " > " + MAX_COMMAND_CHARS
                    + " characters). Write one short command; type 'help' for the list."));
        }
        String text = Commands.normalize(raw);
        if (text.isEmpty()) return error(Reply.malformed("Empty command. Type 'help' for the list of commands."));
        if (Protocol.isHelp(text)) return Observation.env(commands.help() + ASK_HELP, null);
        String question = Commands.after(text, Protocol.ASK_COMMAND);
        if (question != null) {
            if (question.isEmpty()) return error(Reply.malformed("Ask what? Say 'ask <your question>'."));
            return Observation.user(SimulatedUser.reply(task.userFacts(), raw));
        }
        Reply r = commands.interpreter().execute(world, text);
        return r.failed() ? error(r) : Observation.env(r.text(), r.payload());
    }

    private static Observation error(Reply r) {
        return new Observation(Observation.Source.ENV, null, null, r.text(), r.payload(), r.error());
    }

    // ---------------------------------------------------------------- privileged

    @Override
    public Task task() {
        if (task == null) throw new IllegalStateException("no episode: call reset first");
        return task;
    }

    @Override
    public Guide guide() { return new PlanGuide(task()); }

    @Override
    public long episodeSeed() { return seed; }

    @Override
    public EnvFacts facts() { return domain.facts(world, this::worldAfterReset); }

    /** A copy of the episode's world as the reset left it: the world made again, and the task posed in it again. */
    private W worldAfterReset() {
        W w = domain.world(request.split(), seed);
        domain.task(w, request, seed);
        return w;
    }

    /** The world of the current episode (tests and checkers). */
    public W world() { return world; }

    public Domain<W> domain() { return domain; }
}
