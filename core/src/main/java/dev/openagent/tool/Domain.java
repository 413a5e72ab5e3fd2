package dev.openagent.tool;

import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;

/**
 * A function-call environment is its data, its tools and its rules (as in tau-bench):
 * a world generator, tools over that world, a task generator and a checker.
 * {@link FunctionCallEnv} runs episodes over any Domain. Shifts read the optional
 * {@link ShiftHooks} (all defaulted) for environment-specific knowledge.
 *
 * @param <W> the mutable world state of one episode
 */
public interface Domain<W> extends ShiftHooks<W> {
    String id();

    String description();

    /** The difficulty levels the task generator supports. */
    List<Integer> difficulties();

    List<Tool<W>> tools();

    /** Domain rules stated in the system prompt. */
    String rules();

    /** A fresh world for one episode. Worlds of different splits share no entities. */
    W world(Split split, long seed);

    /** The task of a request in that world; {@code seed} is the episode seed. */
    Task task(W world, TaskRequest request, long seed);

    /**
     * Checks a final answer (and, for tasks that write, the world state).
     *
     * @return null when right, else a short reason
     */
    default String check(Task task, W world, String answer) {
        return Checks.answerProblem(answer, task.mustContain(), task.mustNotContain());
    }
}
