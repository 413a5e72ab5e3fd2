package dev.openagent.server.env;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.util.RawValue;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.json.Json;
import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.LiveEpisode;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.wire.OpenAiWire;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One client's environment instance and its current episode, behind a WebSocket connection or
 * an HTTP session id. Answers are OpenEnv's shapes: a reset or a step gives
 * {@code {"observation", "reward", "done"}}, {@link #state()} gives {@code {"episode_id",
 * "step_count", ...}}. Every public method is synchronized: a session serves one message at a
 * time, and sessions share nothing.
 */
final class Session {
    /** How the remote agent is named in recorded trajectories. */
    static final String AGENT = "remote";

    final String id;
    private final Catalog catalog;
    private final boolean oracleAllowed;
    private final String episodePrefix;
    private volatile long lastUsedNanos = System.nanoTime();

    private String envId;
    private String shiftSpec;
    private EnvChoice choice;
    private Env env;
    private TaskChoice tasks;
    private int nextIndex;
    private int episodes;
    private LiveEpisode episode;
    private String episodeId;
    private Guide guide;
    /** The last tool list rendered and its JSON: consecutive episodes usually show the same tools, rendered once. */
    private List<ToolSpec> renderedTools;
    private RawValue renderedToolsJson;

    Session(String id, Catalog catalog, EnvServer.Defaults defaults, boolean oracleAllowed) {
        this.id = id;
        this.catalog = catalog;
        this.oracleAllowed = oracleAllowed;
        this.envId = defaults.env();
        this.shiftSpec = defaults.shift();
        this.tasks = new TaskChoice(defaults.split(), defaults.difficulty(), defaults.runSeed());
        this.episodePrefix = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    }

    void touch() { lastUsedNanos = System.nanoTime(); }

    long idleNanos(long now) { return now - lastUsedNanos; }

    /**
     * Starts an episode on the task the data names (by index or seed), else on the session's next
     * index. Only a successful reset changes the session's choices and advances the index.
     */
    synchronized ObjectNode reset(ResetData d) {
        String nextEnv = d.env() != null ? d.env() : envId;
        String nextShift = d.shift() != null ? d.shift() : shiftSpec;
        EnvChoice nextChoice = choice;
        if (choice == null || !nextEnv.equals(envId) || !nextShift.equals(shiftSpec)) {
            // Resolved first, in the server's catalog (an environment loaded from a file too): only then is a
            // failure the shift's.
            try {
                catalog.get(nextEnv);
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, "unknown_env", e.getMessage());
            }
            try {
                nextChoice = EnvChoice.of(catalog, nextEnv, nextShift);
            } catch (IllegalArgumentException e) {
                throw new ApiError(400, "invalid_shift", e.getMessage());
            }
        }
        TaskChoice t = tasks;
        if (d.split() != null) t = t.withSplit(d.split());
        if (d.runSeed() != null) t = new TaskChoice(t.split(), t.difficulty(), d.runSeed());
        if (d.difficulty() != null) t = t.withDifficulty(d.difficulty());
        var levels = nextChoice.environment().info().difficulties();
        if (t.difficulty() != 0 && !levels.contains(t.difficulty())) {
            throw ApiError.invalid(nextChoice.envId() + " has no difficulty " + t.difficulty() + " (levels: " + levels + "; 0 mixes them)");
        }
        Integer taskIndex = d.seed() != null ? null : d.task() != null ? d.task() : nextIndex;
        TaskRequest request = taskIndex == null ? t.bySeed(d.seed()) : t.byIndex(taskIndex);
        Env nextEnvInstance = nextChoice == choice ? env : nextChoice.create();
        LiveEpisode started;
        try {
            started = new LiveEpisode(nextEnvInstance, request, taskIndex);
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid(e.getMessage());
        }
        envId = nextEnv;
        shiftSpec = nextShift;
        choice = nextChoice;
        env = nextEnvInstance;
        tasks = t;
        if (taskIndex != null) nextIndex = taskIndex + 1;
        episodes++;
        episode = started;
        episodeId = d.episodeId() != null ? d.episodeId() : episodePrefix + "-" + episodes;
        guide = oracleAllowed ? env.guide() : null;
        return answer(started(), null, false);
    }

    private ObjectNode started() {
        LiveEpisode e = episode;
        Task task = e.task();
        ObjectNode o = Json.object();
        o.put("episode_id", episodeId);
        o.put("step", 0);
        o.put("env", choice.envId());
        o.put("shift", env.spec().shiftSpec());
        o.put("interface", choice.environment().info().iface().id());
        o.put("split", e.request().split().id());
        o.put("difficulty", task.difficulty());
        o.put("task_id", task.id());
        if (e.taskIndex() != null) o.put("task_index", e.taskIndex());
        else o.putNull("task_index");
        o.put("task_seed", e.request().seed());
        o.put("system_prompt", e.start().systemPrompt());
        o.put("query", e.start().query());
        o.putRawValue("tools", toolsJson(e.start().tools()));
        o.set("messages", ChatCodec.messages(e.messagesFrom(0), ChatCodec.Dialect.RESPONSE));
        o.putArray("observations");
        o.put("tool_errors", 0);
        o.putNull("outcome");
        o.putNull("solvable");
        oracle(o, null);
        return o;
    }

    private RawValue toolsJson(List<ToolSpec> tools) {
        if (!tools.equals(renderedTools)) {
            renderedToolsJson = new RawValue(Json.write(ChatCodec.tools(tools)));
            renderedTools = tools;
        }
        return renderedToolsJson;
    }

    synchronized ObjectNode step(Action action) {
        LiveEpisode e = requireEpisode();
        if (e.done()) throw new ApiError(409, "episode_over", "the episode is over; reset to start the next one");
        int before = e.messageCount();
        Step step = e.step(action);
        ObjectNode o = Json.object();
        o.put("episode_id", episodeId);
        o.put("step", e.steps());
        o.set("messages", ChatCodec.messages(e.messagesFrom(before), ChatCodec.Dialect.RESPONSE));
        ArrayNode observations = o.putArray("observations");
        int errors = 0;
        for (Observation ob : step.observations()) {
            ObjectNode x = observations.addObject();
            x.put("source", ob.source().name().toLowerCase(Locale.ROOT));
            x.put("call_id", ob.callId());
            x.put("tool", ob.tool());
            x.put("text", ob.text());
            if (ob.error() != null) {
                errors++;
                x.putObject("error").put("code", ob.error().code().name()).put("message", ob.error().message());
            } else {
                x.putNull("error");
            }
        }
        o.put("tool_errors", errors);
        if (step.done()) {
            o.set("outcome", outcome(step.outcome()));
            o.put("solvable", e.task().solvable());
        } else {
            o.putNull("outcome");
            o.putNull("solvable");
        }
        oracle(o, step);
        return answer(o, step.reward(), step.done());
    }

    /** With --allow-oracle, the oracle's next action rides along (null once the episode is over). */
    private void oracle(ObjectNode o, Step last) {
        if (guide == null) return;
        if (last != null && last.done()) o.putNull("oracle");
        else o.set("oracle", OpenAiWire.action(guide.next(last)));
    }

    private static ObjectNode answer(ObjectNode observation, Double reward, boolean done) {
        ObjectNode r = Json.object();
        r.set("observation", observation);
        if (reward == null) r.putNull("reward");
        else r.put("reward", reward);
        r.put("done", done);
        return r;
    }

    static ObjectNode outcome(Outcome outcome) {
        return Json.object()
                .put("success", outcome.success())
                .put("end", outcome.end().name().toLowerCase(Locale.ROOT))
                .put("detail", outcome.detail());
    }

    /** OpenEnv's State ({@code episode_id}, {@code step_count}) and the session's choices; the trajectory once the episode is over. */
    synchronized ObjectNode state() {
        ObjectNode o = Json.object();
        LiveEpisode e = episode;
        if (e == null) o.putNull("episode_id");
        else o.put("episode_id", episodeId);
        o.put("step_count", e == null ? 0 : e.steps());
        o.put("env", envId);
        o.put("shift", choice == null ? shiftSpec : env.spec().shiftSpec());
        o.put("split", tasks.split().id());
        o.put("difficulty", tasks.difficulty());
        o.put("run_seed", tasks.runSeed());
        o.put("next_task", nextIndex);
        o.put("episodes", episodes);
        if (e == null) {
            o.putNull("task_id");
            o.put("done", false);
            o.putNull("outcome");
            return o;
        }
        o.put("task_id", e.task().id());
        o.put("done", e.done());
        if (e.done()) {
            o.set("outcome", outcome(e.last().outcome()));
            o.set("trajectory", Json.tree(e.trajectory(AGENT)));
        } else {
            o.putNull("outcome");
        }
        return o;
    }

    private LiveEpisode requireEpisode() {
        if (episode == null) throw new ApiError(409, "no_episode", "no episode in this session yet: reset first");
        return episode;
    }
}
