package dev.openagent.metrics;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Confidence intervals, the paired test and pass^k against values computed by hand. */
class InferenceTest {
    @Test
    void wilsonIntervalMatchesHandComputation() {
        // 8/10: centre (0.8 + z²/20)/(1 + z²/10) = 0.71674, half-width 0.22658.
        Rate r = Rate.of(8, 10);
        assertEquals(0.8, r.value(), 1e-12);
        assertEquals(0.4902, r.lo(), 1e-4);
        assertEquals(0.9433, r.hi(), 1e-4);
        // 0/10: the interval still has width; [0, z²/(n + z²)] = [0, 0.2775].
        Rate zero = Rate.of(0, 10);
        assertEquals(0.0, zero.lo(), 1e-12);
        assertEquals(0.2775, zero.hi(), 1e-4);
        assertEquals(0.7225, Rate.of(10, 10).lo(), 1e-4);
        assertNull(Rate.of(0, 0));
        assertThrows(IllegalArgumentException.class, () -> Rate.of(3, 2));
    }

    @Test
    void wilsonIntervalAlwaysHoldsTheEstimateInsideZeroOne() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 2000; i++) {
            int n = 1 + rnd.nextInt(500);
            int k = rnd.nextInt(n + 1);
            Rate r = Rate.of(k, n);
            assertTrue(0 <= r.lo() && r.lo() <= r.value() && r.value() <= r.hi() && r.hi() <= 1, r.toString());
        }
    }

    @Test
    void exactMcNemarMatchesTheBinomialTail() {
        // b=1, c=9: 2 * (C(10,0) + C(10,1)) / 2^10 = 22/1024.
        assertEquals(22.0 / 1024, McNemar.exactP(1, 9), 1e-12);
        assertEquals(22.0 / 1024, McNemar.exactP(9, 1), 1e-12);
        assertEquals(2.0 / 64, McNemar.exactP(0, 6), 1e-12);
        assertEquals(0.25, McNemar.exactP(3, 0), 1e-12);
        assertEquals(1.0, McNemar.exactP(5, 5), 1e-12);
        assertEquals(1.0, McNemar.exactP(0, 0), 1e-12);
        // Large counts do not underflow: 400 vs 600 is far from chance, 500 vs 501 is not.
        assertTrue(McNemar.exactP(400, 600) < 1e-9);
        assertTrue(McNemar.exactP(500, 501) > 0.9);
    }

    @Test
    void passKIsTheTauBenchEstimator() {
        // Task A: 2 of 4 trials succeeded; task B: 4 of 4.
        List<PassK.Trials> tasks = List.of(new PassK.Trials(4, 2), new PassK.Trials(4, 4));
        assertEquals(0.75, PassK.of(tasks, 1), 1e-12);
        assertEquals((1.0 / 6 + 1) / 2, PassK.of(tasks, 2), 1e-12);   // C(2,2)/C(4,2) = 1/6
        assertEquals(0.5, PassK.of(tasks, 3), 1e-12);                // C(2,3) = 0
        assertEquals(0.5, PassK.of(tasks, 4), 1e-12);
        assertNull(PassK.of(tasks, 5), "no task has 5 trials");
        assertEquals(3.0 / 5 * 2 / 4, PassK.of(List.of(new PassK.Trials(5, 3)), 2), 1e-12); // C(3,2)/C(5,2) = 3/10
    }

    @Test
    void passKNeverIncreasesWithK() {
        SplittableRandom rnd = new SplittableRandom(9);
        for (int i = 0; i < 300; i++) {
            List<PassK.Trials> tasks = new java.util.ArrayList<>();
            for (int t = 0; t < 1 + rnd.nextInt(20); t++) {
                int n = 1 + rnd.nextInt(8);
                tasks.add(new PassK.Trials(n, rnd.nextInt(n + 1)));
            }
            Double prev = 1.0;
            for (int k = 1; k <= 8; k++) {
                Double v = PassK.of(tasks.stream().filter(x -> x.n() >= 8).toList(), k);
                if (v == null) break;
                assertTrue(v <= prev + 1e-12);
                prev = v;
            }
        }
    }
}
