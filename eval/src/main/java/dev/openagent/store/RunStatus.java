package dev.openagent.store;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/**
 * The state of a run in the results store. The store's {@code runs.status} column, the JSON of {@code eval --json},
 * {@code store merge --json}, reports and the viewer carry its {@link #id()} (the lower-case name), as they did when
 * statuses were plain strings; {@link #toString()} is the id too, so text output reads the same.
 */
public enum RunStatus {
    /** Created and not finished (an eval, a recording server or a proxy still writing to it). */
    RUNNING,
    /** Every planned episode scored. */
    COMPLETE,
    /** This process finished with episodes unscored (errors). */
    INCOMPLETE,
    /** Stopped early (a budget, the endpoint refusing credentials, a signal); the note says why. */
    STOPPED,
    /** A shard finished its part while others have not; never overwrites {@link #COMPLETE} in the store. */
    PARTIAL;

    private final String id = name().toLowerCase(Locale.ROOT);

    /** The stored and printed text: {@code running}, {@code complete}, {@code incomplete}, {@code stopped} or {@code partial}. */
    @JsonValue
    public String id() { return id; }

    @Override
    public String toString() { return id; }

    /** The status stored as {@code text}. */
    public static RunStatus of(String text) {
        for (RunStatus s : values()) if (s.id.equals(text)) return s;
        throw new IllegalArgumentException("unknown run status '" + text + "' (this openagent knows running, complete, incomplete, stopped and partial)");
    }
}
