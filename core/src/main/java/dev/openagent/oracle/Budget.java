package dev.openagent.oracle;

import java.util.HashMap;
import java.util.Map;

/** How often the view solver tries a call or a way to see a value before it gives up. */
final class Budget {
    static final int MAX_TRIES = 12;
    /**
     * Tries of a call whose latest answer said "try again" or arrived broken: retry layers compose and multiply (under
     * obs.runtime-error:3 each of obs.malformed-output:3's four answers may come after three failures: 16 tries).
     */
    static final int MAX_RETRIES = 48;
    private static final int MAX_RECOVERIES = 12;

    private final Map<String, Integer> recoveries = new HashMap<>();

    boolean bounded(String what) {
        return recoveries.merge(what, 1, Integer::sum) <= MAX_RECOVERIES;
    }

    /** As {@link #bounded}, or as {@link #boundedRetry} when it follows a "try again". */
    boolean bounded(String what, boolean retrying) {
        return retrying ? boundedRetry(what) : bounded(what);
    }

    /** As {@link #bounded}, for what retry layers multiply (a poll of a job under flapping and busy servers). */
    boolean boundedRetry(String what) {
        return recoveries.merge(what, 1, Integer::sum) <= MAX_RETRIES;
    }
}
