package dev.openagent.frontier;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PairedDropTest {
    /** Paired differences with P(static only) = p10 and P(shifted only) = p01: the drop is p10 - p01. */
    static PairedDrop run(double drop, double confidence, double p10, double p01, int pairs, SplittableRandom rnd) {
        PairedDrop t = new PairedDrop(drop, confidence);
        for (int i = 0; i < pairs && t.verdict() == PairedDrop.Verdict.OPEN; i++) {
            double u = rnd.nextDouble();
            t.add(u < p10 ? 1 : u < p10 + p01 ? -1 : 0);
        }
        return t;
    }

    @Test
    void anAgentTheShiftDoesNotTouchHoldsAndOneItAlwaysBreaksBreaks() {
        PairedDrop same = new PairedDrop(0.1, 0.95);
        for (int i = 0; i < 200 && same.verdict() == PairedDrop.Verdict.OPEN; i++) same.add(true, true);
        assertEquals(PairedDrop.Verdict.HOLDS, same.verdict());
        assertTrue(same.pairs() < 80, "identical outcomes settle it well before 200 tasks: " + same.pairs());
        assertTrue(same.upper() < 0.1 + 1e-9, "holds: the interval lies below the threshold, " + same.upper());

        PairedDrop broken = new PairedDrop(0.1, 0.95);
        for (int i = 0; i < 200 && broken.verdict() == PairedDrop.Verdict.OPEN; i++) broken.add(true, false);
        assertEquals(PairedDrop.Verdict.BREAKS, broken.verdict());
        assertTrue(broken.pairs() <= 10, "every task lost: a handful settle it, " + broken.pairs());
        assertTrue(broken.lower() >= 0.1, "breaks: the interval lies at or above the threshold, " + broken.lower());
        assertEquals(broken.pairs(), broken.decidedAt());
    }

    @Test
    void aDropNearTheThresholdStaysOpen() {
        PairedDrop t = run(0.1, 0.95, 0.12, 0.02, 200, new SplittableRandom(5));
        assertEquals(PairedDrop.Verdict.OPEN, t.verdict());
        assertEquals(200, t.pairs());
        assertTrue(t.lower() < 0.1 && t.upper() >= 0.1, t.lower() + " " + t.upper());
        assertEquals(t.estimate() >= 0.1 ? PairedDrop.Verdict.BREAKS : PairedDrop.Verdict.HOLDS, t.leaning());
    }

    /**
     * The guarantee, measured: at the threshold's edges (true drop just inside each side) the wrong verdict comes at
     * most at (1 - confidence) / 2 of the time, and the interval misses the true drop at most at 1 - confidence,
     * over 400 sequences of up to 200 pairs each.
     */
    @Test
    void wrongVerdictsAndMissedIntervalsStayWithinTheConfidence() {
        SplittableRandom rnd = new SplittableRandom(11);
        int runs = 400;
        int falseBreaks = 0, falseHolds = 0, missed = 0;
        for (int i = 0; i < runs; i++) {
            PairedDrop below = run(0.1, 0.9, 0.08, 0.02, 200, rnd);   // true drop 0.06 < 0.1
            if (below.verdict() == PairedDrop.Verdict.BREAKS) falseBreaks++;
            if (below.lower() > 0.06 || below.upper() < 0.06) missed++;
            PairedDrop at = run(0.1, 0.9, 0.12, 0.02, 200, rnd);      // true drop 0.10: breaking by definition
            if (at.verdict() == PairedDrop.Verdict.HOLDS) falseHolds++;
        }
        assertTrue(falseBreaks <= 0.05 * runs, "false breaks " + falseBreaks);
        assertTrue(falseHolds <= 0.05 * runs, "false holds " + falseHolds);
        assertTrue(missed <= 0.10 * runs, "intervals that missed the drop " + missed);
    }

    /** The verdict is read off the interval: it breaks exactly when the interval's lower end reaches the threshold. */
    @Test
    void theVerdictAgreesWithTheInterval() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 60; i++) {
            double p10 = rnd.nextDouble() * 0.6;
            PairedDrop t = new PairedDrop(0.2, 0.9);
            for (int k = 0; k < 120; k++) {
                double u = rnd.nextDouble();
                t.add(u < p10 ? 1 : u < p10 + 0.05 ? -1 : 0);
                if (t.verdict() != PairedDrop.Verdict.OPEN) break;
                assertTrue(t.lower() < 0.2 + 1e-6 && t.upper() >= 0.2 - 1e-6, "open, yet the interval " + t.lower() + ".." + t.upper() + " excludes 0.2");
            }
            if (t.verdict() == PairedDrop.Verdict.BREAKS) assertTrue(t.lower() >= 0.2 - 1e-6, "" + t.lower());
            if (t.verdict() == PairedDrop.Verdict.HOLDS) assertTrue(t.upper() <= 0.2 + 1e-6, "" + t.upper());
        }
    }

    @Test
    void badSettingsAndDifferencesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PairedDrop(0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> new PairedDrop(1.5, 0.95));
        assertThrows(IllegalArgumentException.class, () -> new PairedDrop(0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PairedDrop(0.1, 0.95).add(2));
    }
}
