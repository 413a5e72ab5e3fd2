package dev.openagent.run;

import dev.openagent.UserInputException;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;
import java.util.stream.IntStream;

/** Which tasks a run covers: N task seeds derived from one run seed, on a split, at a difficulty (0 = mixed). */
public record TaskPlan(Split split, int tasks, long seed, int difficulty) {
    public TaskPlan {
        if (tasks < 0) throw new UserInputException("tasks must be >= 0");
    }

    /** The task seed of the i-th task: the same run seed always gives the same tasks. */
    public long taskSeed(int i) { return Seeds.mix(seed, i); }

    public List<TaskRequest> requests() {
        return IntStream.range(0, tasks).mapToObj(i -> new TaskRequest(split, taskSeed(i), difficulty)).toList();
    }
}
