package dev.openagent.server;

import dev.openagent.episode.Conversation;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;

/**
 * One episode a server runs on behalf of a remote agent: the environment, what the agent was
 * shown, and the conversation so far, so that the finished episode is a {@link Trajectory} like
 * any local run's. Not thread-safe: its owner serialises access.
 */
public final class LiveEpisode {
    private final Env env;
    private final TaskRequest request;
    private final Integer taskIndex;
    private final Start start;
    private final Conversation conversation;
    private final long startNanos = System.nanoTime();
    private Step last;
    private int steps;

    /** Resets {@code env} on the request. */
    public LiveEpisode(Env env, TaskRequest request, Integer taskIndex) {
        this.env = env;
        this.request = request;
        this.taskIndex = taskIndex;
        this.start = env.reset(request);
        this.conversation = new Conversation(start, env.info().iface());   // text-command answers and questions as the agent writes them
    }

    public Start start() { return start; }

    public TaskRequest request() { return request; }

    /** The task's index in the server's task sequence, or null when it was chosen by seed. */
    public Integer taskIndex() { return taskIndex; }

    /** Privileged: the task as the outermost shift defines it (its id, difficulty, solvability). */
    public Task task() { return env.task(); }

    public Env env() { return env; }

    public Step last() { return last; }

    public int steps() { return steps; }

    public boolean done() { return last != null && last.done(); }

    /** Applies one action and records it. */
    public Step step(Action action) {
        if (done()) throw new IllegalStateException("the episode is over");
        conversation.add(action);
        last = env.step(action);
        conversation.add(last);
        steps++;
        return last;
    }

    /** The chat messages so far, from the {@code from}-th on (0: the system prompt). */
    public List<Message> messagesFrom(int from) {
        List<Message> all = conversation.messages();
        return all.subList(Math.min(from, all.size()), all.size());
    }

    public int messageCount() { return conversation.messages().size(); }

    /** The finished episode. */
    public Trajectory trajectory(String agent) {
        if (!done()) throw new IllegalStateException("the episode is not over");
        return Episodes.trajectory(env, request, agent, start, conversation, last.outcome(), Usage.NONE);
    }

    /** The finished episode as a sink records it. */
    public FinishedEpisode finished(String agent) {
        return new FinishedEpisode(trajectory(agent), task(), taskIndex, (System.nanoTime() - startNanos) / 1_000_000);
    }
}
