package dev.openagent.server.view;

import java.time.Duration;
import java.time.Instant;

/** How long a running run has left, from the rate its episodes finished at since a moment it was observed. */
final class Eta {
    private Eta() {}

    /**
     * @param from       when {@code doneFrom} episodes were finished
     * @param remaining  episodes still to finish
     * @return null when no rate is known yet (nothing finished since {@code from}) or nothing remains
     */
    static Duration estimate(Instant from, int doneFrom, Instant now, int doneNow, int remaining) {
        int done = doneNow - doneFrom;
        long elapsed = Duration.between(from, now).toMillis();
        if (remaining <= 0 || done <= 0 || elapsed <= 0) return null;
        return Duration.ofMillis(Math.round((double) elapsed * remaining / done));
    }

    /** A duration as a person reads it: 42 s, 3 min 5 s, 2 h 10 min. */
    static String text(Duration d) {
        if (d == null) return "–";
        long s = d.toSeconds();
        if (s < 60) return s + " s";
        if (s < 3600) return s / 60 + " min " + s % 60 + " s";
        return s / 3600 + " h " + s % 3600 / 60 + " min";
    }
}
