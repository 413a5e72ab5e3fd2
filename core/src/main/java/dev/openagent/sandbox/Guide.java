package dev.openagent.sandbox;

/**
 * A privileged solver of the current episode: what the oracle follows. Each environment supplies
 * one for its own tasks; each shift wraps the guide of the environment it wraps, so the oracle
 * reads the whole shift stack and stays a validator of it.
 */
public interface Guide {
    /**
     * The next action.
     *
     * @param last the step that answered the previous action, or null before the first action
     */
    Action next(Step last);

    /**
     * Takes {@code step} as the answer to this guide's latest action: a layer above put that result
     * together itself (from other calls), so the layers below never saw it. Guides of shift layers keep
     * it for their inner guide and hand it further down; a base guide reads its answers from {@link #next}.
     */
    default void handDown(Step step) {}
}
