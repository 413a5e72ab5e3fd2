package dev.openagent.sandbox;

/** How an episode ended and whether that was right. */
public record Outcome(boolean success, End end, String detail) {
    public enum End {
        /** The agent gave a final answer. */
        ANSWERED,
        /** The agent declared the task impossible. */
        REFUSED,
        /** The step limit was reached. */
        STEP_LIMIT,
        /** The agent (or its model endpoint) failed outside the agent's control: not scored as a failure. */
        INFRA_ERROR
    }

    public Outcome {
        detail = detail == null ? "" : detail;
    }

    public boolean refused() { return end == End.REFUSED; }
}
