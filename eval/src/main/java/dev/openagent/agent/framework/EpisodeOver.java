package dev.openagent.agent.framework;

/**
 * Thrown into a framework agent when it calls a tool or its model after the sandbox ended the
 * episode (the step limit): its loop unwinds and the episode keeps the outcome the sandbox gave.
 */
public final class EpisodeOver extends RuntimeException {
    EpisodeOver(String detail) {
        super("the sandbox ended this episode (" + detail + "); the agent must stop", null, false, false);
    }
}
