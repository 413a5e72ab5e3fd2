package dev.openagent.sandbox;

/**
 * One environment instance, the Gymnasium {@code Env} contract for tool use: {@link #reset} starts
 * an episode on a task, {@link #step} applies an action. Not thread-safe: one instance per worker.
 * Shifts are {@link EnvWrapper}s around an {@code Env}.
 */
public interface Env {
    /** The base environment and the stack of shifts applied. */
    EnvSpec spec();

    /** Static facts about the base environment. */
    EnvironmentInfo info();

    /** Starts a new episode; the same request always gives the same episode. */
    Start reset(TaskRequest request);

    /** Applies one action. Never throws on bad agent input: errors come back as observations. */
    Step step(Action action);

    /** Privileged: the current task as this layer defines it. For the oracle, checkers and reports. */
    Task task();

    /** Privileged: a solver of the current episode through every layer (see {@link Guide}). */
    Guide guide();

    /** The seed shifts derive their randomness from in the current episode. */
    long episodeSeed();

    /**
     * What the environment of the current episode declares for shifts to read (facts on its tools, its
     * vocabulary, what its task kinds allow). Wrappers pass it through: a shift never unwraps.
     */
    EnvFacts facts();

    /**
     * The records of the environment's database the current episode changed, as {@code {table: {id: record or null}}}
     * (null: deleted), for environments that keep one (tau2-bench's retail); null for the others. Trajectories keep it
     * as {@code db_changes}. Wrappers pass it through.
     */
    default com.fasterxml.jackson.databind.JsonNode dbChanges() { return null; }

    /**
     * Gives the current episode {@code turns} more turns before its step limit. A shift layer grants the turns it
     * makes the agent spend by design and promises will get through (a retry of a call it failed or broke), so that a
     * heavy stack of them does not run a solvable task out of turns: that cost is the shift's, not the agent's.
     * Wrappers pass it on; an environment without a step limit ignores it.
     */
    default void grantTurns(int turns) {}
}
