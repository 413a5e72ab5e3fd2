package dev.openagent.text;

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
import dev.openagent.tool.ShiftHooks;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs episodes of a {@link TextDomain}: the agent acts with {@link Action.Command} text, reads prose
 * observations, and learns the valid commands only by sending {@code help}. It answers
 * {@code ask_user} from the simulated user, turns every kind of bad input (empty, oversized, unknown
 * or malformed commands, tool calls) into an error observation, checks the ending and enforces the
 * step limit. An ending may also come as a message: {@code FINAL ANSWER: ...} or {@code CANNOT COMPLETE: ...}
 * ({@link Protocol#command}), as the system prompt tells agents to write it.
 */
public final class TextCommandEnv<W> implements Env, ShiftHooks.Provider {
    /** The pseudo-tool of a command in gold plans; its {@code text} argument is the command. */
    public static final String COMMAND = "command";
    /** The protocol command every text environment understands, added to its help text. */
    static final String ASK_HELP = "\n  " + Protocol.ASK_COMMAND + " <question>                    ask the user when a detail is missing or ambiguous";
    /** Commands longer than this are refused unread. */
    public static final int MAX_COMMAND_CHARS = 300;

    private final TextDomain<W> domain;
    private final EnvironmentInfo info;
    private final String systemPrompt;
    private final int maxSteps;

    private W world;
    private Task task;
    private long seed;
    private int steps;
    private Outcome outcome;

    public TextCommandEnv(TextDomain<W> domain) {
        this.domain = domain;
        this.maxSteps = domain.maxSteps();
        this.info = infoOf(domain);
        this.systemPrompt = Protocol.systemPrompt(domain.rules(), Interface.TEXT_COMMAND);
    }

    public static EnvironmentInfo infoOf(TextDomain<?> domain) {
        return new EnvironmentInfo(domain.id(), domain.description(), Interface.TEXT_COMMAND, domain.difficulties(), domain.verbs());
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
        return new Start(systemPrompt, task.query(), List.of());
    }

    @Override
    public Step step(Action action) {
        if (task == null) throw new IllegalStateException("step before reset");
        if (outcome != null) return Step.end(List.of(Observation.env("The episode is over.", null)), outcome);
        steps++;
        Step result = switch (action) {
            case Action.Command c -> switch (Protocol.command(c.text())) {
                case Action.Command cmd -> Step.of(List.of(command(cmd.text())));
                case Action.Answer a -> finish(a);        // "FINAL ANSWER: ..." written as a message
                case Action.Refuse r -> finish(r);        // "CANNOT COMPLETE: ..." written as a message
                default -> throw new IllegalStateException();
            };
            case Action.AskUser q -> Step.of(List.of(Observation.user(SimulatedUser.reply(task.userFacts(), q.question()))));
            case Action.CallTools c -> {
                List<Observation> out = new ArrayList<>(c.calls().size());
                for (Action.ToolCall call : c.calls()) {
                    out.add(Protocol.ASK_USER.equals(call.name())
                            ? Observation.tool(call.id(), call.name(), SimulatedUser.reply(task.userFacts(), question(call.arguments())), null)
                            : Observation.toolError(call.id(), call.name(), ToolError.of(ToolError.Code.UNSUPPORTED_ACTION,
                            "this environment takes text commands, not tool calls; write a command such as 'help'")));
                }
                yield Step.of(out);
            }
            case Action.Answer a -> finish(a);
            case Action.Refuse r -> finish(r);
        };
        if (!result.done() && steps >= maxSteps) {
            outcome = new Outcome(false, Outcome.End.STEP_LIMIT, "step limit of " + maxSteps + " reached");
            return Step.end(result.observations(), outcome);
        }
        return result;
    }

    private Observation command(String raw) {
        if (raw.length() > MAX_COMMAND_CHARS) {
            return error(Reply.malformed("That command is too long (" + raw.length() + " > " + MAX_COMMAND_CHARS
                    + " characters). Write one short command; type 'help' for the list."));
        }
        String text = Commands.normalize(raw);
        if (text.isEmpty()) return error(Reply.malformed("Empty command. Type 'help' for the list of commands."));
        if (isHelp(text)) return Observation.env(domain.help() + ASK_HELP, null);
        String question = Commands.after(text, Protocol.ASK_COMMAND);
        if (question != null) {
            if (question.isEmpty()) return error(Reply.malformed("Ask what? Say 'ask <your question>'."));
            return Observation.user(SimulatedUser.reply(task.userFacts(), raw));
        }
        Reply r = domain.execute(world, text);
        return r.failed() ? error(r) : Observation.env(r.text(), r.payload());
    }

    /** The question of an ask_user call: its "question" argument, or the raw text when that is not JSON. */
    private static String question(String arguments) {
        try {
            JsonNode q = Json.MAPPER.readTree(arguments);
            return q != null && q.hasNonNull("question") ? q.get("question").asText() : arguments;
        } catch (JsonProcessingException | RuntimeException e) {
            return arguments;
        }
    }

    private static Observation error(Reply r) {
        return new Observation(Observation.Source.ENV, null, null, r.text(), r.payload(), r.error());
    }

    private Step finish(Action ending) {
        outcome = Outcome.judge(task, ending, answer -> domain.check(task, world, answer));
        return Step.end(List.of(), outcome);
    }

    @Override
    public Task task() {
        if (task == null) throw new IllegalStateException("no episode: call reset first");
        return task;
    }

    @Override
    public Guide guide() { return new CommandGuide(task()); }

    @Override
    public long episodeSeed() { return seed; }

    /** Whether a normalised command asks for the command list. */
    public static boolean isHelp(String normalized) {
        return normalized.equals("help") || normalized.equals("commands");
    }

    @Override
    public ShiftHooks.Bound<?> shiftHooks() { return new ShiftHooks.Bound<>(domain, world); }

    /** The world of the current episode (tests and checkers). */
    public W world() { return world; }

    public TextDomain<W> domain() { return domain; }
}
