package dev.openagent.episode;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Start;

/** An agent: makes one session per episode. Implementations must be safe to share across threads. */
public interface Agent {
    /** A short id, as in {@code --agent}. */
    String name();

    /**
     * Starts an episode.
     *
     * @param start what the agent is shown
     * @param env   privileged access to the episode; only validators (the oracle) may read it
     */
    AgentSession begin(Start start, Env env);
}
