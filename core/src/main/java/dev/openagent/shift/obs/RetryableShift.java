package dev.openagent.shift.obs;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * A layer whose failures go away when the same action is retried (obs.runtime-error, obs.malformed-output):
 * an eligible turn is hit with probability 0.2 / 0.35 / 0.5 (severity 1-3), never more than severity turns
 * in a row, so retrying always gets through; the oracle retries the action of a turn that was hit.
 */
abstract class RetryableShift extends ShiftEnv<RetryableShift.Episode> {
    /** What the layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        private int streak;
        /** Whether the latest turn was hit. */
        private boolean hit;

        /** Whether an eligible turn is hit; a miss ends the streak. Draws from {@code rnd} only while the streak allows a hit. */
        boolean strikes(SplittableRandom rnd, int severity) {
            double p = switch (severity) { case 1 -> 0.2; case 2 -> 0.35; default -> 0.5; };
            if (streak < severity && rnd.nextDouble() < p) return true;
            streak = 0;
            return false;
        }

        /** Records that this turn was hit. */
        void hit() {
            streak++;
            hit = true;
        }
    }

    RetryableShift(Env inner, Shift shift, Map<String, String> params) {
        super(inner, shift, params, Episode::new);
    }

    @Override
    protected final void newTurn() { ep.hit = false; }

    /** The oracle retries the same action after a turn that was hit. */
    @Override
    public final Guide guide() {
        return LayerGuide.retrying(inner.guide(), this, () -> ep.hit);
    }
}
