package dev.openagent.envs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;

import java.util.HashSet;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers shared by the environment tests. */
public final class EnvTesting {
    private EnvTesting() {}

    /** The first request (by seed) whose task has this kind at this difficulty. */
    public static TaskRequest requestFor(Env env, String kind, int difficulty, Split split) {
        for (long seed = 0; seed < 5000; seed++) {
            TaskRequest r = new TaskRequest(split, seed, difficulty);
            env.reset(r);
            if (env.task().kind().equals(kind)) return r;
        }
        throw new AssertionError("no " + kind + " task at difficulty " + difficulty);
    }

    /** One tool call in the current episode; returns the single observation. */
    public static Observation call(Env env, String tool, String arguments) {
        Step s = env.step(Action.CallTools.of("t", tool, arguments));
        return s.observations().getFirst();
    }

    public static JsonNode ok(Env env, String tool, String arguments) {
        Observation o = call(env, tool, arguments);
        if (o.isError()) throw new AssertionError(tool + " " + arguments + " failed: " + o.text());
        return o.payload();
    }

    /** One text command; returns the observation. */
    public static Observation command(Env env, String text) {
        return env.step(new Action.Command(text)).observations().getFirst();
    }

    public static String json(Object... nameValues) {
        return Json.write(dev.openagent.envs.kit.TaskDraft.args(nameValues));
    }

    /** Runs the oracle with every action passed through {@code tamper} first (to make it go wrong on purpose). */
    public static Trajectory runTampered(Env env, TaskRequest request, UnaryOperator<Action> tamper) {
        Agent agent = new Agent() {
            @Override
            public String name() { return "tampered-oracle"; }

            @Override
            public AgentSession begin(Start start, Env e) {
                Guide guide = e.guide();
                return last -> tamper.apply(guide.next(last));
            }
        };
        return Episodes.run(env, agent, request);
    }

    /** A domain environment reset to the request the environment tests start from (test split, seed 42, difficulty 1). */
    public static <W> DomainEnv<W> started(Domain<W> domain) {
        DomainEnv<W> env = new DomainEnv<>(domain);
        env.reset(new TaskRequest(Split.TEST, 42, 1));
        return env;
    }

    /** Generates a layout twice and asserts that each of its parts came out the same. */
    @SafeVarargs
    public static <L> void assertSameTwice(Supplier<L> generate, Function<L, ?>... parts) {
        L a = generate.get();
        L b = generate.get();
        for (Function<L, ?> part : parts) assertEquals(part.apply(a), part.apply(b));
    }

    /**
     * Asserts that no name the first {@code count} layouts of the train split use is one those of the test split
     * use; {@code names} adds a layout's names to a set.
     */
    public static <L> void assertSplitsShareNoNames(Layouts<L> layouts, int count, BiConsumer<L, Set<String>> names) {
        Set<String> both = names(layouts, count, Split.TRAIN, names);
        both.retainAll(names(layouts, count, Split.TEST, names));
        assertTrue(both.isEmpty(), "names in both splits: " + both);
    }

    private static <L> Set<String> names(Layouts<L> layouts, int count, Split split, BiConsumer<L, Set<String>> names) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < count; i++) names.accept(layouts.get(split, i), out);
        return out;
    }

    /**
     * Every cached layout of both splits (the world of layout i made by {@code world} from the layout and i)
     * poses a task at every difficulty 1-4: kinds fall back to siblings, never fail.
     */
    public static <L, W> void assertEveryLayoutPosesEveryDifficulty(Layouts<L> layouts, BiFunction<L, Integer, W> world,
                                                                   Domain.Generator<W> generator) {
        for (Split split : Split.values()) {
            for (int i = 0; i < layouts.perSplit(); i++) {
                for (int d = 1; d <= 4; d++) {
                    assertEquals(d, generator.task(world.apply(layouts.get(split, i), i), new TaskRequest(split, i, d), i * 7919L + d).difficulty());
                }
            }
        }
    }

    /**
     * Runs the request with the final answer rewritten and asserts that the episode fails, its outcome's
     * detail naming {@code reason} (what the rewritten answer lacks).
     */
    public static void assertRewrittenAnswerFails(Env env, TaskRequest request, UnaryOperator<String> rewrite, String reason) {
        Trajectory t = runTampered(env, request, answerWith(rewrite));
        assertFalse(t.success());
        assertTrue(t.outcome().detail().contains(reason), t.outcome().detail());
    }

    /** Answers and asserts that the episode fails, its outcome's detail naming {@code reason}. */
    public static void assertAnswerFails(Env env, String answer, String reason) {
        Step end = env.step(new Action.Answer(answer));
        assertFalse(end.outcome().success(), answer);
        assertTrue(end.outcome().detail().contains(reason), end.outcome().detail());
    }

    /** Answers and asserts that the episode fails. */
    public static void assertAnswerFails(Env env, String answer) {
        assertFalse(env.step(new Action.Answer(answer)).outcome().success(), answer);
    }

    /** Whether two of the items share a key (two patients of one name, a hotel chain in two cities...). */
    public static <T> boolean hasRepeats(java.util.Collection<T> items, Function<T, ?> key) {
        Set<Object> seen = new HashSet<>();
        boolean repeated = false;
        for (T item : items) repeated |= !seen.add(key.apply(item));
        return repeated;
    }

    /** Replaces the final answer. */
    public static UnaryOperator<Action> answerWith(java.util.function.UnaryOperator<String> rewrite) {
        return a -> a instanceof Action.Answer ans ? new Action.Answer(rewrite.apply(ans.text())) : a;
    }
}
