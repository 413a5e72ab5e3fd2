package dev.openagent.domain;

import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Task;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * One kind of task an environment poses, declared in one place: its name (as tasks and reports carry
 * it), its difficulty, how it is posed, the ways it can be made impossible and how it is restated with
 * a longer chain. Shifts reach the last two through {@link dev.openagent.sandbox.EnvFacts}.
 *
 * @param name        the kind's name
 * @param difficulty  1..4: dependent hops, plus constraints and comparisons at the top
 * @param pose        sets up a task of this kind on the environment's task generator {@code G}; false (having
 *                    changed nothing) when the world cannot pose it
 * @param impossible  the realistic ways this kind can be made impossible, in the order they are tried
 * @param longerChain how a task of this kind is restated so its entity takes more dependent calls to reach (null: it is not)
 * @param <W>         the world of one episode
 * @param <G>         the environment's task generator, what the pose works on
 */
public record TaskKind<W, G>(String name, int difficulty, Predicate<G> pose, List<Impossible<W>> impossible,
                             Restatement<W> longerChain) {
    public TaskKind {
        impossible = List.copyOf(impossible);
    }

    public static <W, G> TaskKind<W, G> of(String name, int difficulty, Predicate<G> pose) {
        return new TaskKind<>(name, difficulty, pose, List.of(), null);
    }

    /** The same kind with these ways to be made impossible. */
    @SafeVarargs
    public final TaskKind<W, G> impossibleBy(Impossible<W>... ways) {
        return new TaskKind<>(name, difficulty, pose, List.of(ways), longerChain);
    }

    /** The same kind, restated through a longer chain this way. */
    public TaskKind<W, G> longerBy(Restatement<W> restatement) {
        return new TaskKind<>(name, difficulty, pose, impossible, restatement);
    }

    /** One way a task can be made impossible in its world: empty when this task does not allow it. */
    @FunctionalInterface
    public interface Impossible<W> {
        Optional<Task> apply(Task task, W world, SplittableRandom rnd);
    }

    /** The task restated so its entity is reached through {@code extraHops} more dependent calls, if it can be. */
    @FunctionalInterface
    public interface Restatement<W> {
        Optional<Chain> apply(Task task, W world, SplittableRandom rnd, int extraHops);
    }
}
