package dev.openagent.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.LiveEpisode;
import dev.openagent.server.TaskChoice;
import dev.openagent.domain.Args;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The episodes behind {@code openagent serve mcp}, independent of the MCP SDK: the shifted
 * environment's tools exactly as an agent sees them, plus control tools to read the task
 * ({@value #GET_TASK}) and to end the episode ({@value #SUBMIT}, {@value #REFUSE}). Every tool call
 * is one environment step. A finished episode is recorded to the sink with its score and the next
 * task starts at once (the next index, or the next seed). Thread-safe: calls are serialised.
 */
public final class McpEpisodeHost {
    public static final String GET_TASK = "get_task";
    public static final String SUBMIT = "submit_answer";
    public static final String REFUSE = "refuse";
    /** The one action tool of text-command environments. */
    public static final String COMMAND = "command";
    /** How episodes are recorded: {@code mcp}, or {@code mcp:<client name>} when the client says its name. */
    public static final String AGENT = "mcp";

    private record Control(ToolSpec spec, Params params) {
        static Control of(String name, String description, Param... params) {
            Params p = Params.of(params);
            return new Control(new ToolSpec(name, description, p.schema()), p);
        }
    }

    private static final int MAX_TEXT = 8_000;
    private static final Control GET = Control.of(GET_TASK,
            "Read the current task: the user's request and the rules of the service. Call it first, and again after an episode ends.");
    private static final Control SUBMIT_TOOL = Control.of(SUBMIT,
            "Give the final answer to the user's request. Ends the episode and returns its score; the next task starts.",
            longString("answer", "The final answer, with every code, id or value a tool issued that the user asked for."));
    private static final Control REFUSE_TOOL = Control.of(REFUSE,
            "Declare that the request cannot be fulfilled (what it needs does not exist or is not allowed). Ends the episode and returns its score.",
            longString("reason", "Why the request cannot be fulfilled."));
    private static final Control COMMAND_TOOL = Control.of(COMMAND,
            "Send one text command to the environment (write 'help' to list the valid commands). Returns what you observe.",
            longString("command", "The command, for example 'look'."));

    /** The protocol's own ask_user tool, validated by the same parameters it shows. */
    private static final Control ASK_TOOL = Control.of(Protocol.ASK_USER, Protocol.ASK_USER_TOOL.description(),
            Param.string("question", "The question for the user.").describedAs("The question for the user."));

    private static Param longString(String name, String description) {
        return new Param(name, Param.Type.STRING, description, true, List.of(), null, null, MAX_TEXT);
    }

    private final EnvChoice choice;
    private final Env env;
    private final TaskChoice tasks;
    private final EpisodeSink sink;
    private final Long seedBase;
    private final Consumer<List<ToolSpec>> onToolsChanged;
    private int next;
    private int recorded;
    private int calls;
    private LiveEpisode episode;
    private List<ToolSpec> tools = List.of();
    private volatile long lastCallNanos = System.nanoTime();
    private String agent = AGENT;

    /**
     * Starts the first episode.
     *
     * @param firstIndex     the first task's index (used when {@code seed} is null); later tasks follow in order
     * @param seed           the first task's seed, or null; later tasks take seed + 1, + 2...
     * @param onToolsChanged told the new tool list when a new episode shows different tools (shifts
     *                       may rename tools per episode)
     */
    public McpEpisodeHost(EnvChoice choice, TaskChoice tasks, int firstIndex, Long seed, EpisodeSink sink,
                          Consumer<List<ToolSpec>> onToolsChanged) {
        this.choice = choice;
        this.env = choice.create();
        this.tasks = tasks;
        this.sink = sink;
        this.seedBase = seed;
        this.next = seed == null ? firstIndex : 0;
        this.onToolsChanged = onToolsChanged;
        startNext();
    }

    /** Resets on the next task; true when its tool list differs from the previous episode's. */
    private boolean startNext() {
        TaskRequest request = seedBase == null ? tasks.byIndex(next) : tasks.bySeed(seedBase + next);
        episode = new LiveEpisode(env, request, seedBase == null ? next : null);
        next++;
        calls = 0;
        List<ToolSpec> shown = new ArrayList<>(episode.start().tools());
        if (textCommands()) {
            // Text-command environments act by commands and show no tools: give MCP clients two.
            shown.add(COMMAND_TOOL.spec());
            shown.add(ASK_TOOL.spec());
        }
        List<String> controls = List.of(GET_TASK, SUBMIT, REFUSE);
        for (ToolSpec t : shown) {
            if (controls.contains(t.name())) {
                throw new IllegalStateException("the environment shows a tool named '" + t.name() + "', which this MCP server reserves for itself");
            }
        }
        shown.add(GET.spec());
        shown.add(SUBMIT_TOOL.spec());
        shown.add(REFUSE_TOOL.spec());
        boolean changed = !shown.equals(tools);
        tools = List.copyOf(shown);
        return changed;
    }

    private boolean textCommands() {
        return choice.environment().info().iface() == Interface.TEXT_COMMAND;
    }

    /** The tools as the MCP client sees them now. */
    public synchronized List<ToolSpec> tools() { return tools; }

    public synchronized int recorded() { return recorded; }

    /**
     * Waits until no call has started for {@code quiet} since now (and none is running), at most
     * {@code max}: lets requests that arrived just before the client closed stdin finish.
     */
    public void awaitQuiet(java.time.Duration quiet, java.time.Duration max) throws InterruptedException {
        long begin = System.nanoTime();
        long deadline = begin + max.toNanos();
        while (System.nanoTime() < deadline) {
            synchronized (this) {
                if (System.nanoTime() - Math.max(begin, lastCallNanos) >= quiet.toNanos()) return;
            }
            Thread.sleep(Math.max(1, quiet.toMillis() / 5));
        }
    }

    /** The current task as text: episode, instructions (the system prompt the agent would get) and the request. */
    public synchronized String taskText() {
        var e = episode;
        return "Episode " + (recorded + 1) + " (task " + e.task().id() + ").\n\n"
                + "Instructions:\n" + e.start().systemPrompt().strip() + "\n"
                + "Through this MCP server, give your final answer with the " + SUBMIT + " tool, and declare a request impossible with the "
                + REFUSE + " tool.\n\n"
                + "User request:\n" + e.start().query();
    }

    /** Calls a tool by the name the client sees, with the arguments it sent. */
    public ToolReply call(String name, Map<String, Object> arguments) {
        return call(name, arguments, null);
    }

    /**
     * As {@link #call(String, Map)}; {@code client} names the MCP client when the transport knows it
     * (recorded as agent {@code mcp:<client>}).
     */
    public synchronized ToolReply call(String name, Map<String, Object> arguments, String client) {
        lastCallNanos = System.nanoTime();
        agent = client == null || client.isBlank() ? AGENT : AGENT + ":" + client;
        JsonNode args = arguments == null ? Json.object() : Json.tree(arguments);
        return switch (name) {
            case GET_TASK -> control(GET, args, a -> new ToolReply(taskText(), false));
            case SUBMIT -> control(SUBMIT_TOOL, args, a -> act(new Action.Answer(a.string("answer"))));
            case REFUSE -> control(REFUSE_TOOL, args, a -> act(new Action.Refuse(a.string("reason"))));
            default -> {
                if (textCommands() && name.equals(COMMAND)) {
                    yield control(COMMAND_TOOL, args, a -> act(new Action.Command(a.string("command"))));
                }
                if (textCommands() && name.equals(Protocol.ASK_USER)) {
                    yield control(ASK_TOOL, args, a -> act(new Action.AskUser(Protocol.question(Json.write(args)))));
                }
                yield act(Action.CallTools.of("call_" + (calls++), name, Json.write(args)));
            }
        };
    }

    private ToolReply control(Control c, JsonNode args, java.util.function.Function<Args, ToolReply> then) {
        try {
            return then.apply(c.params().validate(args));
        } catch (ToolFailure f) {
            return new ToolReply("Error [" + f.error().code() + "]: " + f.getMessage(), true);
        }
    }

    private ToolReply act(Action action) {
        Step step = episode.step(action);
        ToolReply reply = ToolReply.of(step.observations());
        if (!step.done()) return reply;
        StringBuilder text = new StringBuilder(reply.text());
        Outcome outcome = step.outcome();
        ObjectNode score = Json.object()
                .put("episode", recorded + 1)
                .put("task_id", episode.task().id())
                .put("success", outcome.success())
                .put("reward", step.reward())
                .put("end", outcome.end().name().toLowerCase(Locale.ROOT))
                .put("detail", outcome.detail());
        sink.record(episode.finished(agent));
        recorded++;
        if (startNext()) onToolsChanged.accept(tools);
        if (!text.isEmpty()) text.append('\n');
        text.append("Episode over. Score: ").append(Json.write(score))
                .append("\nThe next task has started: call ").append(GET_TASK).append(" to read it.");
        return new ToolReply(text.toString(), false);
    }
}
