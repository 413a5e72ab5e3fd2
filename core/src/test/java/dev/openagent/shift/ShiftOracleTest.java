package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The oracle and the view-only solver validate the shift engine on every registered environment: under every
 * shift that applies (alone, at every severity, and in composed pairs) each solves every solvable task and refuses
 * every unsolvable one, on both splits. The oracle proves each layer consistent (it follows their privileged
 * guides); the view solver proves each shifted task solvable from what the agent is shown. poi, the training
 * domain, gets the most tasks; the others fewer, to keep the default build fast (the benchmark tag runs every
 * pair at scale).
 */
class ShiftOracleTest {
    static List<Environment> envs() { return Environments.all(); }

    static int tasks(Environment env, int poi, int other) { return env.id().equals("poi") ? poi : other; }

    /** The shifts pinned to apply to the environment (ShiftCatalogTest checks the catalog agrees). */
    static List<Shift> applicable(Environment env) {
        return ShiftExpectations.applicable(env.id()).stream().map(ShiftCatalog::get).toList();
    }

    static Stream<Arguments> singles() {
        List<Arguments> out = new ArrayList<>();
        for (Environment env : envs()) {
            for (Shift s : applicable(env)) {
                boolean graded = s.params().stream().anyMatch(p -> p.name().equals("severity"));
                if (!graded) {
                    out.add(Arguments.of(env.id(), ShiftSpec.parseStack(s.id())));
                    continue;
                }
                for (int sev = 1; sev <= 3; sev++) out.add(Arguments.of(env.id(), ShiftSpec.parseStack(s.id() + ":severity=" + sev)));
            }
        }
        return out.stream();
    }

    /** Runs the oracle and the view solver on {@code n} tasks of both splits; fails with the first bad episode. */
    static int check(Environment environment, ShiftStack stack, int n, long seedBase) {
        Env env = stack.apply(environment.create());
        Env watched = ViewSolver.watched(stack, environment.create());
        OracleAgent oracle = new OracleAgent();
        ViewSolver view = new ViewSolver();
        int unsolvable = 0;
        for (int i = 0; i < n; i++) {
            Split split = i % 2 == 0 ? Split.TEST : Split.TRAIN;
            TaskRequest request = new TaskRequest(split, seedBase + i, 0);
            Trajectory seen = Episodes.run(watched, view, request);
            if (!ViewSolver.solved(seen)) {
                fail(environment.id() + " " + stack.label() + ": not solvable from the agent's view, " + seen.taskId() + " (" + seen.kind() + "): "
                        + ViewSolver.finding(seen).orElse(seen.outcome().toString()) + "\n" + seen.toJson());
            }
            Trajectory t = Episodes.run(env, oracle, request);
            if (!t.success()) {
                fail(environment.id() + " " + stack.label() + ": oracle failed " + t.taskId() + " (" + t.kind() + "): " + t.outcome() + "\n" + t.toJson());
            }
            if (Boolean.TRUE.equals(t.outcome().attacked())) {
                fail(environment.id() + " " + stack.label() + ": the oracle carried out an attacker's instruction in " + t.taskId() + "\n" + t.toJson());
            }
            if (!t.solvable()) {
                unsolvable++;
                assertTrue(t.outcome().refused(), "unsolvable tasks end in a refusal");
            }
        }
        return unsolvable;
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("singles")
    void oracleSucceedsUnderEveryShiftAlone(String env, ShiftStack stack) {
        Environment e = Environments.get(env);
        int n = tasks(e, 120, 50);
        int unsolvable = check(e, stack, n, 1000);
        boolean expectUnsolvable = stack.layers().stream().anyMatch(l -> l.shift().id().equals("task.unsolvable"));
        assertEquals(expectUnsolvable ? n : 0, unsolvable, "only task.unsolvable makes tasks unsolvable, and every one of them");
    }

    interface PairCheck {
        void check(Shift a, Shift b, int i, int j);
    }

    /**
     * Every unordered pair of distinct shifts, with their positions (for the seed). Every pair runs, and every failing
     * one is reported: the first failure no longer hides the pairs after it.
     */
    static void forEachPair(List<Shift> shifts, PairCheck check) {
        List<Executable> pairs = new ArrayList<>();
        for (int i = 0; i < shifts.size(); i++) {
            for (int j = i + 1; j < shifts.size(); j++) {
                Shift a = shifts.get(i);
                Shift b = shifts.get(j);
                int x = i;
                int y = j;
                pairs.add(() -> check.check(a, b, x, y));
            }
        }
        assertAll(pairs.stream());
    }

    static String heavy(Shift s) {
        return s.params().stream().anyMatch(p -> p.name().equals("severity")) ? s.id() + ":severity=3" : s.id();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("envs")
    void oracleSucceedsUnderComposedPairs(Environment env) {
        forEachPair(applicable(env), (a, b, i, j) -> check(env, ShiftSpec.parseStack(a.id() + "+" + b.id()), tasks(env, 12, 6), 7000L + 31L * i + j));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("envs")
    void oracleSucceedsUnderHeavyPairs(Environment env) {
        forEachPair(applicable(env), (a, b, i, j) -> check(env, ShiftSpec.parseStack(heavy(a) + "+" + heavy(b)), tasks(env, 6, 4), 50_000L + 97L * i + j));
    }

    /**
     * Stacks of wave 3's shifts that the view check once failed on (seed 1, 100 tasks of validate): an error inside a
     * nonstandard envelope naming the timeout to send (poi, every episode); a record look-up answered "run it as a
     * job" (travel, 21); a redo quoted by a cascading failure sent with a later page's cursor (retail, 16); a stale job
     * result never fetched live (poi, 4); polls that a flapping service and a token requirement refused until the
     * recovery's budget ran out (poi, 19). Each in the order that failed, on 40 tasks of both splits.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "poi|obs.latency+obs.nonstandard-feedback",
            "travel|obs.latency:severity=3+obs.missing-values:severity=3",
            "medical|obs.latency:severity=3+obs.missing-values:severity=3",
            "retail|obs.cascading-failure:severity=3+obs.pagination:severity=3",
            "poi|obs.stale-data:severity=3+obs.latency:severity=3",
            "poi|obs.latency:severity=3+logic.extra-prerequisite+obs.flapping:severity=3",
            "travel|obs.stale-data+obs.latency+obs.cascading-failure+obs.flapping"})
    void bothSolversSucceedUnderStacksTheViewCheckOnceFailed(String env, String stack) {
        check(Environments.get(env), ShiftSpec.parseStack(stack), 40, 1);
    }

    /** domain.transfer from every environment to every other, whatever their interfaces. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("envs")
    void oracleSucceedsUnderDomainTransferToEveryOtherEnvironment(Environment env) {
        assertAll(envs().stream().filter(target -> !target.id().equals(env.id()))
                .map(target -> (Executable) () -> check(env, ShiftSpec.parseStack("domain.transfer:to=" + target.id()), 10, 3000)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("envs")
    @Tag("benchmark")
    void oracleSucceedsUnderComposedPairsAtScale(Environment env) {
        forEachPair(applicable(env), (a, b, i, j) -> check(env, ShiftSpec.parseStack(heavy(a) + "+" + heavy(b)), 200, 90_000L + 1000L * i + j));
    }
}
