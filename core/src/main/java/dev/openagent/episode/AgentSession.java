package dev.openagent.episode;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Step;

/** An agent inside one episode. */
public interface AgentSession {
    /**
     * The next action.
     *
     * @param last what the environment answered to the previous action; null before the first
     * @throws InfrastructureException when the agent cannot act for reasons outside its control
     */
    Action act(Step last);

    /** Tokens spent so far. */
    default Usage usage() { return Usage.NONE; }
}
