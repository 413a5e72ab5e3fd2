package dev.openagent.domain;

import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;

/**
 * An environment is its data, its tools (or commands) and its rules, as in tau-bench: a world
 * generator, a surface to act on that world, task kinds with their generator, a checker, and the
 * vocabulary shifts may use. {@link DomainEnv} runs episodes over any Domain; shifts read what it
 * declares (facts on its tools, its task kinds and vocabulary) through {@link dev.openagent.sandbox.Env#facts()}.
 *
 * @param <W> the mutable world state of one episode
 */
public interface Domain<W> {
    String id();

    String description();

    /** Domain rules stated in the system prompt (for text commands, no command list: only {@code help} gives it). */
    String rules();

    /** How agents act: the tools, or the text commands and their interpreter. */
    Surface<W> surface();

    /** A fresh world for one episode. Worlds of different splits share no entities. */
    W world(Split split, long seed);

    /** The kinds of task the generator poses; the difficulty levels are theirs. */
    List<? extends TaskKind<W, ?>> kinds();

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

    /** Synonyms, paraphrase rewrites and distracting sentences of this environment (none by default). */
    default Vocabulary<W> vocabulary() { return Vocabulary.none(); }

    /** The difficulty levels the task kinds cover, in order. */
    default List<Integer> difficulties() {
        return kinds().stream().map(TaskKind::difficulty).distinct().sorted().toList();
    }

    /** Turns an episode may take before it is cut off: text-command episodes need more turns. */
    default int maxSteps() {
        return switch (surface()) {
            case Surface.FunctionCalls<W> f -> 30;
            case Surface.TextCommands<W> t -> 50;
        };
    }

    /** What shifts may know about an episode in this world: the declarations bound to it. */
    default EnvFacts facts(W world) { return new DomainFacts<>(this, world); }
}
