package dev.openagent.text;

import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.tool.ShiftHooks;

import java.util.List;

/**
 * A text-command environment is its data, its command interpreter and its rules: a world
 * generator, an interpreter of text commands over that world, a task generator and a checker.
 * {@link TextCommandEnv} runs episodes over any TextDomain, the way
 * {@link dev.openagent.tool.FunctionCallEnv} runs a {@link dev.openagent.tool.Domain}.
 *
 * <p>A task's gold plan is a command script: every call is {@link TextCommandEnv#COMMAND} with the
 * command in its {@code text} argument; the answer template reads the payloads of the observations
 * (for example a completion code). {@link CommandGuide} follows it. Shifts read the optional
 * {@link ShiftHooks} (all defaulted), as they do for function-call domains; their plans' calls are commands.
 *
 * @param <W> the mutable world state of one episode
 */
public interface TextDomain<W> extends ShiftHooks<W> {
    String id();

    String description();

    List<Integer> difficulties();

    /** The command verbs, as `openagent envs` lists them (the text-command counterpart of tool names). */
    List<String> verbs();

    /** Domain rules stated in the system prompt (no command list: that is only given by {@link #help}). */
    String rules();

    /** What the agent reads when it sends {@code help}: the valid commands ({@code ask <question>} is added by the environment). */
    String help();

    /** A fresh world for one episode. Worlds of different splits share no entities. */
    W world(Split split, long seed);

    /** The task of a request in that world; {@code seed} is the episode seed. */
    Task task(W world, TaskRequest request, long seed);

    /**
     * Runs one command. The text is already normalised by {@link Commands#normalize} (lower case,
     * single spaces, no surrounding punctuation) and is neither empty, {@code help} nor {@code ask ...}. Must never
     * throw on bad input: unknown verbs, unknown names and impossible actions are {@link Reply#error}s.
     */
    Reply execute(W world, String command);

    /** Turns an episode may take; text environments need more than function-call ones. */
    default int maxSteps() { return 50; }

    /** Null when the final answer (and, for tasks that change the world, its state) is right; else why not. */
    default String check(Task task, W world, String answer) {
        return Checks.answerProblem(answer, task.mustContain(), task.mustNotContain());
    }
}
