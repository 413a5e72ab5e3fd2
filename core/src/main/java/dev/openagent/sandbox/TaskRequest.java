package dev.openagent.sandbox;

/**
 * Which task to start: the split, the task seed and the difficulty (0 lets the seed choose).
 * The same request always yields the same world and task.
 */
public record TaskRequest(Split split, long seed, int difficulty) {
    public TaskRequest {
        if (split == null) throw new IllegalArgumentException("split is null");
        if (difficulty < 0) throw new IllegalArgumentException("difficulty must be >= 0");
    }

    public static TaskRequest of(Split split, long seed) { return new TaskRequest(split, seed, 0); }
}
