package dev.openagent.server.env;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.LiveEpisode;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.wire.OpenAiWire;
import dev.openagent.sandbox.Env;

import java.util.Locale;

/**
 * One client's environment instance and its current episode. Every public method is
 * synchronized: a session serves one request at a time, and sessions share nothing.
 */
final class Session {
    /** How the remote agent is named in recorded trajectories. */
    static final String AGENT = "remote";

    final String id;
    final EnvChoice choice;
    private final Env env;
    private final boolean oracleAllowed;
    private TaskChoice tasks;
    private int nextIndex;
    private int episodes;
    private volatile long lastUsedNanos = System.nanoTime();

    private LiveEpisode episode;
    private Guide guide;
    private Action oracleNext;

    Session(String id, EnvChoice choice, TaskChoice tasks, int firstIndex, boolean oracleAllowed) {
        this.id = id;
        this.choice = choice;
        this.env = choice.create();
        this.tasks = tasks;
        this.nextIndex = firstIndex;
        this.oracleAllowed = oracleAllowed;
    }

    void touch() { lastUsedNanos = System.nanoTime(); }

    long idleNanos(long now) { return now - lastUsedNanos; }

    /**
     * Starts an episode: on the task with the given index or seed, else on the next index.
     *
     * @param split      null keeps the session's split
     * @param difficulty null keeps the session's difficulty
     */
    synchronized ObjectNode reset(Integer index, Long seed, Split split, Integer difficulty) {
        TaskChoice t = split == null ? tasks : tasks.withSplit(split);
        if (difficulty != null) {
            if (difficulty != 0 && !choice.environment().info().difficulties().contains(difficulty)) {
                throw ApiError.invalid(choice.envId() + " has no difficulty " + difficulty + " (levels: "
                        + choice.environment().info().difficulties() + "; 0 mixes them)");
            }
            t = t.withDifficulty(difficulty);
        }
        Integer taskIndex = seed != null ? null : index != null ? index : nextIndex;
        TaskRequest request = taskIndex == null ? t.bySeed(seed) : t.byIndex(taskIndex);
        try {
            episode = new LiveEpisode(env, request, taskIndex);
        } catch (IllegalArgumentException e) {
            episode = null;
            throw ApiError.invalid(e.getMessage());
        }
        // Only a successful reset changes the session's settings and advances the task index.
        tasks = t;
        if (taskIndex != null) nextIndex = taskIndex + 1;
        episodes++;
        guide = oracleAllowed ? env.guide() : null;
        oracleNext = null;
        return started();
    }

    private ObjectNode started() {
        LiveEpisode e = episode;
        Task task = e.task();
        ObjectNode o = Json.object();
        o.put("session_id", id);
        o.put("episode", episodes);
        o.put("env", choice.envId());
        o.put("shift", env.spec().shiftSpec());
        o.put("interface", choice.environment().info().iface().id());
        o.put("task_id", task.id());
        if (e.taskIndex() != null) o.put("task_index", e.taskIndex());
        else o.putNull("task_index");
        o.put("seed", e.request().seed());
        o.put("split", e.request().split().id());
        o.put("difficulty", task.difficulty());
        o.put("system_prompt", e.start().systemPrompt());
        o.put("query", e.start().query());
        o.set("tools", ChatCodec.tools(e.start().tools()));
        o.set("messages", ChatCodec.messages(e.messagesFrom(0), ChatCodec.Dialect.RESPONSE));
        return o;
    }

    synchronized ObjectNode step(Action action) {
        LiveEpisode e = requireEpisode();
        if (e.done()) throw ApiError.conflict("episode_over", "the episode is over; POST /v1/sessions/" + id + "/reset to start the next one");
        int before = e.messageCount();
        Step step = e.step(action);
        oracleNext = null;
        ObjectNode o = Json.object();
        ArrayNode observations = o.putArray("observations");
        int errors = 0;
        for (Observation ob : step.observations()) {
            ObjectNode x = observations.addObject();
            x.put("source", ob.source().name().toLowerCase(Locale.ROOT));
            if (ob.callId() != null) x.put("call_id", ob.callId());
            if (ob.tool() != null) x.put("tool", ob.tool());
            x.put("text", ob.text());
            if (ob.error() != null) {
                errors++;
                x.putObject("error").put("code", ob.error().code().name()).put("message", ob.error().message());
            } else {
                x.putNull("error");
            }
        }
        o.set("messages", ChatCodec.messages(e.messagesFrom(before), ChatCodec.Dialect.RESPONSE));
        o.put("reward", step.reward());
        o.put("done", step.done());
        if (step.done()) o.set("outcome", outcome(step.outcome()));
        else o.putNull("outcome");
        ObjectNode info = o.putObject("info");
        info.put("step", e.steps());
        info.put("tool_errors", errors);
        info.put("task_id", e.task().id());
        if (step.done()) info.put("solvable", e.task().solvable());
        return o;
    }

    static ObjectNode outcome(Outcome outcome) {
        return Json.object()
                .put("success", outcome.success())
                .put("end", outcome.end().name().toLowerCase(Locale.ROOT))
                .put("detail", outcome.detail());
    }

    /** The oracle's next action in wire form; the same until the next step. */
    synchronized ObjectNode oracle() {
        LiveEpisode e = requireEpisode();
        if (guide == null) throw new ApiError(403, "oracle_disabled", "the oracle endpoint is off; start the server with --allow-oracle");
        if (e.done()) throw ApiError.conflict("episode_over", "the episode is over; the oracle has nothing more to do");
        if (oracleNext == null) oracleNext = guide.next(e.last());
        ObjectNode o = Json.object();
        o.set("action", OpenAiWire.action(oracleNext));
        return o;
    }

    /** The finished episode as a trajectory (only once it is over: it names the task's solvability). */
    synchronized ObjectNode trajectory() {
        LiveEpisode e = requireEpisode();
        if (!e.done()) throw ApiError.conflict("episode_running", "the trajectory is available once the episode is over");
        return (ObjectNode) Json.tree(e.trajectory(AGENT));
    }

    synchronized ObjectNode describe() {
        ObjectNode o = Json.object();
        o.put("session_id", id);
        o.put("env", choice.envId());
        o.put("shift", choice.shiftLabel());
        o.put("split", tasks.split().id());
        o.put("difficulty", tasks.difficulty());
        o.put("run_seed", tasks.runSeed());
        o.put("next_task_index", nextIndex);
        o.put("episodes", episodes);
        if (episode != null) {
            o.put("task_id", episode.task().id());
            o.put("steps", episode.steps());
            o.put("done", episode.done());
        }
        return o;
    }

    private LiveEpisode requireEpisode() {
        if (episode == null) throw ApiError.conflict("no_episode", "no episode in this session; POST /v1/sessions/" + id + "/reset first");
        return episode;
    }
}
