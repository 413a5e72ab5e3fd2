package dev.openagent.adapt;

import dev.openagent.registry.Catalog;
import dev.openagent.curve.CurveFiles;
import dev.openagent.curve.CurveSink;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Online adaptation learns from outcome reward alone, and a stream killed after a group and restarted gives the same
 * curve as one never stopped. The starting policy is weak on purpose: a tiny SFT run (150 steps of 16 on poi, seed 3,
 * as {@code RlLearnsTest} and cli's {@code TinyPolicy} train it) that solves about one difficulty-1 task in ten with
 * sampled actions.
 */
class OnlineAdaptationTest {
    /** The kill-and-resume test's stream: query.noise on difficulty-1 test tasks. */
    static final String SHIFT = "query.noise";
    static final int GROUPS = 20;
    static final int COMPARED = 5;
    /**
     * The rise required of the last {@value #COMPARED} groups' mean success over the first {@value #COMPARED}'s. Measured
     * when written (seed 1 here; the same stream at other run seeds stands in for another CPU's floating point, which
     * parts the same seeds' trajectories after a few updates): under query.noise +0.27, +0.19, +0.25 and +0.30 at seeds 1
     * to 4 over thirds of the stream; under tool.removal +0.22, +0.33, +0.21 and +0.32, the last five groups against the first five; at learning rate 0
     * the curves stay flat (within 0.03). 0.10 is about half the smallest rise. Under logic.inversion (reasoning) +0.28,
     * +0.39, +0.31 and +0.28 at seeds 1 to 4, the last five groups against the first five (0.031 to 0.031 at learning
     * rate 0); logic.conflict did not rise (0.063 to 0.050 at seed 1). The interaction and security streams of that shape
     * rose by as little as 0.07 and 0.08 at seed 4 (obs.runtime-error +0.41, +0.24, +0.20, +0.07; obs.injection at
     * severity 3 +0.11, +0.21, +0.24, +0.08), so they run in the shape that rose most steadily among those measured
     * (docs/adaptation.md): obs.runtime-error as 8 tasks of 4 attempts a group, each task's attempts one another's
     * baseline (+0.34, +0.18, +0.19, +0.16), and obs.injection with groups of 64 (+0.21, +0.14, +0.20, +0.23).
     */
    static final double MARGIN = 0.10;

    @TempDir
    static Path shared;

    static Path start;

    @TempDir
    Path dir;

    @BeforeAll
    static void weakPolicy() {
        start = shared.resolve("sft");
        Trainer.Result warm = Trainer.train(Trainer.Options.of(Trainer.Method.SFT, "poi", 150, 3)
                .withConfig(PolicyConfig.tiny()).withBatch(16, 4e-3f), line -> {});
        try (Policy p = warm.policy()) {
            Checkpoint.save(p, start, warm.info());
        }
    }

    static OnlineAdaptation.Settings settings(String shift, int groups, int groupSize, int attempts, float lr) {
        return new OnlineAdaptation.Settings(start, "poi", ShiftSpec.parseStack(shift), Split.TEST, 1, groups, groupSize, attempts, lr, 1,
                "tiny under " + shift);
    }

    /**
     * 20 groups of difficulty-1 test tasks under a persistent shift of each tier: perception, internalization,
     * reasoning, interaction, security (each one where targeted offline adaptation helps too: docs/adaptation.md).
     */
    @ParameterizedTest(name = "{0}: groups of {1}, {2} attempt(s) of each task")
    @CsvSource({"query.noise, 32, 1", "tool.removal, 32, 1", "logic.inversion, 32, 1", "obs.runtime-error, 32, 4",
            "obs.injection:severity=3, 64, 1"})
    void theCurveRisesUnderAPersistentShiftFromOutcomeRewardAlone(String shift, int groupSize, int attempts) {
        Path out = dir.resolve("online");
        OnlineAdaptation.Result r = OnlineAdaptation.run(new Catalog(), settings(shift, GROUPS, groupSize, attempts, OnlineAdaptation.DEFAULT_LR),
                out, new CurveFiles(out), line -> {}, Integer.MAX_VALUE);
        assertEquals(GROUPS, r.points().size());
        assertEquals((long) GROUPS * groupSize, r.points().getLast().episodes());
        double first = r.meanSuccess(1, COMPARED);
        double last = r.meanSuccess(GROUPS - COMPARED + 1, GROUPS);
        StringBuilder curve = new StringBuilder();
        r.points().forEach(p -> curve.append(String.format(" %.2f", p.success().value())));
        assertTrue(last >= first + MARGIN, "mean success of the first " + COMPARED + " groups " + first + ", of the last " + last + ":" + curve);
        assertTrue(Files.isRegularFile(OnlineAdaptation.checkpoint(out, GROUPS).resolve("weights.bin")), "a checkpoint per group");
        assertTrue(Files.isRegularFile(out.resolve(CurveFiles.CSV)) && Files.isRegularFile(out.resolve(CurveFiles.JSON)));
    }

    @Test
    void aStreamKilledAfterAGroupAndRestartedGivesTheSameCurveAsOneNeverStopped() throws Exception {
        // Attempts of each task (a task's attempts as its baseline) here, so both ways of forming groups are run.
        OnlineAdaptation.Settings s = settings(SHIFT, 4, 12, 3, OnlineAdaptation.DEFAULT_LR);
        Path whole = dir.resolve("whole");
        OnlineAdaptation.run(new Catalog(), s, whole, new CurveFiles(whole), line -> {}, Integer.MAX_VALUE);

        Path killed = dir.resolve("killed");
        OnlineAdaptation.Result part = OnlineAdaptation.run(new Catalog(), s, killed, new CurveFiles(killed), line -> {}, 2);
        assertEquals(2, part.points().size());
        assertTrue(Files.notExists(OnlineAdaptation.checkpoint(killed, 3)));
        OnlineAdaptation.Result rest = OnlineAdaptation.run(new Catalog(), s, killed, new CurveFiles(killed), line -> {}, Integer.MAX_VALUE);
        assertEquals(2, rest.resumedFrom());
        assertEquals(4, rest.points().size());

        for (String f : new String[]{CurveFiles.CSV, CurveFiles.JSON}) {
            assertArrayEquals(Files.readAllBytes(whole.resolve(f)), Files.readAllBytes(killed.resolve(f)), f + " differs after resuming");
        }
        assertArrayEquals(Files.readAllBytes(OnlineAdaptation.checkpoint(whole, 4).resolve("weights.bin")),
                Files.readAllBytes(OnlineAdaptation.checkpoint(killed, 4).resolve("weights.bin")), "the same weights after the last group");
        assertTrue(rest.points().stream().anyMatch(OnlineAdaptation.Point::updated), "the policy was updated on the way");

        // Another stream in the same directory is refused rather than mixed into it.
        assertThrows(IllegalArgumentException.class,
                () -> OnlineAdaptation.run(new Catalog(), settings("obs.format", 4, 12, 3, OnlineAdaptation.DEFAULT_LR), killed, CurveSink.NONE, line -> {}, 4));
    }
}
