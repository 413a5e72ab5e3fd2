package dev.openagent.shift.obs;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A layer whose failures go away when the same action is retried (obs.runtime-error, obs.malformed-output):
 * an eligible turn is hit with probability 0.2 / 0.35 / 0.5 (severity 1-3), never more than severity times in a
 * row for the same target (what a subclass names: one for every action, or each tool), so retrying always gets
 * through; the oracle retries the action of a turn that was hit. The retries are on the layer: each hit grants the
 * episode a turn beyond its step limit.
 */
abstract class RetryableShift extends ShiftEnv<RetryableShift.Episode> {
    /** What the layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        /** Hits in a row per target since its last clean answer. */
        private final Map<String, Integer> streaks = new HashMap<>();
        /** Whether the latest turn was hit. */
        private boolean hit;

        /**
         * Whether an eligible turn is hit for {@code target}; a miss ends the target's streak. Draws from {@code rnd}
         * only while the streak allows a hit.
         */
        boolean strikes(String target, SplittableRandom rnd, int severity) {
            double p = switch (severity) { case 1 -> 0.2; case 2 -> 0.35; default -> 0.5; };
            if (streaks.getOrDefault(target, 0) < severity && rnd.nextDouble() < p) return true;
            streaks.remove(target);
            return false;
        }

        private void hit(String target) {
            streaks.merge(target, 1, Integer::sum);
            hit = true;
        }
    }

    RetryableShift(Env inner, Shift shift, Map<String, String> params) {
        super(inner, shift, params, Episode::new);
    }

    /**
     * Records that this turn was hit for {@code target}, and grants the episode the turn its retry takes: at most
     * severity retries per clean answer, so a looping agent still meets the step limit.
     */
    final void hit(String target) {
        ep.hit(target);
        inner.grantTurns(1);
    }

    @Override
    protected final void newTurn() { ep.hit = false; }

    /** The oracle retries the same action after a turn that was hit. */
    @Override
    public final Guide guide() {
        return LayerGuide.retrying(inner.guide(), this, () -> ep.hit);
    }
}
