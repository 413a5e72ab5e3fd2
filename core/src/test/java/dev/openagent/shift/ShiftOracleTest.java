package dev.openagent.shift;

import dev.openagent.agent.OracleAgent;
import dev.openagent.envs.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The oracle validates the shift engine: under every shift (alone, at every severity, and in
 * composed pairs) it solves every solvable task and refuses every unsolvable one.
 */
class ShiftOracleTest {
    static final Environment POI = Environments.get("poi");

    static Stream<ShiftStack> singles() {
        List<ShiftStack> out = new ArrayList<>();
        for (Shift s : ShiftCatalog.all()) {
            if (s.notApplicable(POI.info()).isPresent()) continue;
            boolean graded = s.params().stream().anyMatch(p -> p.name().equals("severity"));
            if (!graded) {
                out.add(ShiftSpec.parseStack(s.id()));
                continue;
            }
            for (int sev = 1; sev <= 3; sev++) out.add(ShiftSpec.parseStack(s.id() + ":severity=" + sev));
        }
        return out.stream();
    }

    /** Runs the oracle on {@code n} tasks of both splits; fails with the first bad episode. */
    static int check(ShiftStack stack, int n, long seedBase) {
        Env env = stack.apply(POI.create());
        OracleAgent oracle = new OracleAgent();
        int unsolvable = 0;
        for (int i = 0; i < n; i++) {
            Split split = i % 2 == 0 ? Split.TEST : Split.TRAIN;
            Trajectory t = Episodes.run(env, oracle, new TaskRequest(split, seedBase + i, 0));
            if (!t.success()) fail(stack.label() + ": oracle failed " + t.taskId() + " (" + t.kind() + "): " + t.outcome() + "\n" + t.toJson());
            if (!t.solvable()) {
                unsolvable++;
                assertTrue(t.outcome().refused(), "unsolvable tasks end in a refusal");
            }
        }
        return unsolvable;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("singles")
    void oracleSucceedsUnderEveryShiftAlone(ShiftStack stack) {
        int unsolvable = check(stack, 120, 1000);
        boolean expectUnsolvable = stack.layers().stream().anyMatch(l -> l.shift().id().equals("task.unsolvable"));
        assertEquals(expectUnsolvable ? 120 : 0, unsolvable, "only task.unsolvable makes tasks unsolvable, and every one of them");
    }

    @Test
    void oracleSucceedsUnderComposedPairs() {
        List<Shift> shifts = ShiftCatalog.all().stream().filter(s -> s.notApplicable(POI.info()).isEmpty()).toList();
        for (int i = 0; i < shifts.size(); i++) {
            for (int j = i + 1; j < shifts.size(); j++) {
                check(ShiftSpec.parseStack(shifts.get(i).id() + "+" + shifts.get(j).id()), 12, 7000L + 31L * i + j);
            }
        }
    }

    static String heavy(Shift s) {
        return s.params().stream().anyMatch(p -> p.name().equals("severity")) ? s.id() + ":severity=3" : s.id();
    }

    @Test
    void oracleSucceedsUnderHeavyPairs() {
        List<Shift> shifts = ShiftCatalog.all().stream().filter(s -> s.notApplicable(POI.info()).isEmpty()).toList();
        for (int i = 0; i < shifts.size(); i++) {
            for (int j = i + 1; j < shifts.size(); j++) {
                check(ShiftSpec.parseStack(heavy(shifts.get(i)) + "+" + heavy(shifts.get(j))), 6, 50_000L + 97L * i + j);
            }
        }
    }

    @Test
    @Tag("benchmark")
    void oracleSucceedsUnderComposedPairsAtScale() {
        List<Shift> shifts = ShiftCatalog.all().stream().filter(s -> s.notApplicable(POI.info()).isEmpty()).toList();
        for (int i = 0; i < shifts.size(); i++) {
            for (int j = i + 1; j < shifts.size(); j++) {
                check(ShiftSpec.parseStack(heavy(shifts.get(i)) + "+" + heavy(shifts.get(j))), 200, 90_000L + 1000L * i + j);
            }
        }
    }
}
