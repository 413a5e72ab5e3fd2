package dev.openagent.server;

import dev.openagent.UserInputException;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;

/**
 * Which tasks a server hands out. A task index {@code i} is the i-th task of
 * {@code openagent run --seed RUN_SEED} on the same split and difficulty, so a served task can be
 * found again in a local run; a task seed names a task directly.
 */
public record TaskChoice(Split split, int difficulty, long runSeed) {
    public TaskChoice {
        if (difficulty < 0) throw new UserInputException("difficulty must be >= 0");
    }

    public TaskRequest byIndex(int index) {
        if (index < 0) throw new UserInputException("task index must be >= 0");
        return new TaskRequest(split, new TaskPlan(split, 0, runSeed, difficulty).taskSeed(index), difficulty);
    }

    public TaskRequest bySeed(long seed) { return new TaskRequest(split, seed, difficulty); }

    public TaskChoice withSplit(Split s) { return new TaskChoice(s, difficulty, runSeed); }

    public TaskChoice withDifficulty(int d) { return new TaskChoice(split, d, runSeed); }
}
