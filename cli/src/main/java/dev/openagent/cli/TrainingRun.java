package dev.openagent.cli;

import dev.openagent.json.Json;
import dev.openagent.curve.CurveSink;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import dev.openagent.store.StoreLocation;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Map;

/**
 * A {@code train} or {@code adapt} recorded in a results store ({@code --store}): a run of its own (no episodes; its
 * stored experiment's {@code kind} says which command), and its learning curve point by point as the trainer sends it.
 * Every invocation is a new run: a training is not continued, so its id is when it started and a random part.
 */
final class TrainingRun implements AutoCloseable {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private final ResultStore store;
    private final String id;
    private final String name;
    private final String config;
    private boolean finished;

    private TrainingRun(ResultStore store, String id, String name, String config) {
        this.store = store;
        this.id = id;
        this.name = name;
        this.config = config;
    }

    /** Opens the store and starts the run; {@code config}'s {@code kind} is {@code train} or {@code adapt}. */
    static TrainingRun begin(StoreLocation location, String name, Map<String, Object> config) {
        byte[] random = new byte[3];
        new SecureRandom().nextBytes(random);
        String id = config.get("kind") + "-" + STAMP.format(ZonedDateTime.now(ZoneOffset.UTC)) + "-" + HexFormat.of().formatHex(random);
        return begin(location, id, name, config);
    }

    /**
     * Opens the store and starts, or continues, the run of this id: a run that resumes (online adaptation's stream, whose
     * id is its settings') sends its points again, and the store keeps one per series, metric and x.
     */
    static TrainingRun begin(StoreLocation location, String id, String name, Map<String, Object> config) {
        ResultStore store = ResultStore.open(location);
        String json = Json.write(config);
        try {
            store.beginRun(id, name, json, 0);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return new TrainingRun(store, id, name, json);
    }

    String id() { return id; }

    String store() { return store.location().toString(); }

    /** The curve's points, to the run; a flush waits until every point sent so far is committed. */
    CurveSink curve() {
        return new CurveSink() {
            @Override
            public void point(String series, long x, String metric, double value, double lo, double hi) {
                store.curvePoint(id, series, x, metric, value, Double.isNaN(lo) ? null : lo, Double.isNaN(hi) ? null : hi);
            }

            @Override
            public void flush() { store.flush(); }
        };
    }

    /** The run is complete: everything it sent is committed. */
    void complete() {
        store.saveRun(id, name, config, 0, RunStatus.COMPLETE, null);
        finished = true;
    }

    /** Closes the store; a run that did not complete (the command failed) is saved as stopped. */
    @Override
    public void close() {
        try {
            if (!finished) store.saveRun(id, name, config, 0, RunStatus.STOPPED, "the command ended before the run completed");
        } finally {
            store.close();
        }
    }
}
