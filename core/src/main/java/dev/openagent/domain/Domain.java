package dev.openagent.domain;

import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolFacts;

import java.util.List;

/**
 * An environment as a declaration, as in tau-bench: its data (a world per episode), its surface (tools
 * or text commands), its rules, its task kinds with their generator, its checker and its vocabulary.
 * The facts shifts may know are declared where each component is (on the tools, the task kinds, the
 * vocabulary); {@link #facts} binds them to an episode's world. {@link DomainEnv} runs episodes over
 * any domain.
 *
 * @param id          the environment id used in reports
 * @param rules       domain rules stated in the system prompt (for text commands, no command list: only {@code help} gives it)
 * @param surface     how agents act: the tools, or the text commands and their interpreter
 * @param worlds      a fresh world for one episode; worlds of different splits share no entities
 * @param kinds       the kinds of task the generator poses; the difficulty levels are theirs
 * @param generator   the task of a request in a world
 * @param checker     the judge of the world state once the answer holds every required value and no near miss
 *                    ({@link #check}): exactly the requested change and nothing else
 * @param vocabulary  synonyms, paraphrase rewrites and distracting sentences
 * @param <W>         the mutable world state of one episode
 */
public record Domain<W>(String id, String description, String rules, Surface<W> surface, Worlds<W> worlds,
                        List<? extends TaskKind<W, ?>> kinds, Generator<W> generator, Checker<W> checker, Vocabulary<W> vocabulary) {

    /** A fresh world for one episode of a split. */
    @FunctionalInterface
    public interface Worlds<W> {
        W world(Split split, long seed);
    }

    /** The task of a request in a world; {@code seed} is the episode seed. */
    @FunctionalInterface
    public interface Generator<W> {
        Task task(W world, TaskRequest request, long seed);
    }

    /** Null when the world state after a right answer is right too, else a short reason. */
    @FunctionalInterface
    public interface Checker<W> {
        String check(Task task, W world, String answer);
    }

    public Domain {
        kinds = List.copyOf(kinds);
    }

    public W world(Split split, long seed) { return worlds.world(split, seed); }

    public Task task(W world, TaskRequest request, long seed) { return generator.task(world, request, seed); }

    /**
     * Null when a final answer is right, else a short reason: it holds every required value and none of the
     * near misses, and then the world is as the task leaves it ({@link #checker}).
     */
    public String check(Task task, W world, String answer) {
        String problem = Checks.answerProblem(answer, task.mustContain(), task.mustNotContain());
        return problem != null ? problem : checker.check(task, world, answer);
    }

    /** The difficulty levels the task kinds cover, in order. */
    public List<Integer> difficulties() {
        return kinds.stream().map(TaskKind::difficulty).distinct().sorted().toList();
    }

    /** Turns an episode may take before it is cut off: text-command episodes need more turns. */
    public int maxSteps() {
        return switch (surface) {
            case Surface.FunctionCalls<W> f -> 30;
            case Surface.TextCommands<W> t -> 50;
        };
    }

    /** What shifts may know about an episode in this world: the declarations bound to it (without revised requests). */
    public EnvFacts facts(W world) { return new DomainFacts<>(this, world, null); }

    /**
     * What shifts may know about an episode in this world, of which {@code fresh} makes a copy as the reset left it
     * (so the user's request can be revised mid-episode: {@link EnvFacts#revised}).
     */
    public EnvFacts facts(W world, java.util.function.Supplier<W> fresh) { return new DomainFacts<>(this, world, fresh); }

    /**
     * The same environment with nothing declared for shifts: tools without facts, kinds without ways to be
     * impossible or restated, no vocabulary. What every shift falls back on for an environment that
     * declares nothing (and what the tests of those fallbacks run on).
     */
    public Domain<W> undeclared(String newId) {
        Surface<W> plain = switch (surface) {
            case Surface.FunctionCalls<W> f -> new Surface.FunctionCalls<>(f.tools().stream()
                    .map(t -> new Tool<>(t.name(), t.description(), t.params(), t.behaviour(), ToolFacts.none(t.name()))).toList());
            case Surface.TextCommands<W> t -> t;
        };
        List<TaskKind<W, ?>> bare = kinds.stream().<TaskKind<W, ?>>map(Domain::bare).toList();
        return new Domain<>(newId, description, rules, plain, worlds, bare, generator, checker, Vocabulary.none());
    }

    private static <W, G> TaskKind<W, G> bare(TaskKind<W, G> k) {
        return new TaskKind<>(k.name(), k.difficulty(), k.pose(), List.of(), null);
    }
}
