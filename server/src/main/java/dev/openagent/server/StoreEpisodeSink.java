package dev.openagent.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.shift.ShiftStack;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;

import java.util.HashMap;
import java.util.Map;

/**
 * Records a server's episodes into the results store as one run, so `openagent report` covers
 * them like any evaluation: each episode with its trajectory, outcome, tier and gold facts. The
 * run is created when the sink opens ("running") and marked "complete" when it closes.
 */
public final class StoreEpisodeSink implements EpisodeSink {
    private final ResultStore store;
    private final boolean ownsStore;
    private final String runId;
    private final String name;
    private final String config;
    private final String configHash;
    private final String shift;
    private final String tier;
    private final Map<Long, Integer> trials = new HashMap<>();
    private int recorded;
    private boolean closed;

    /**
     * @param config    what the server runs, recorded with the run (and hashed into the episodes' identity)
     * @param ownsStore whether {@link #close()} closes the store
     */
    public StoreEpisodeSink(ResultStore store, boolean ownsStore, String runId, String name, ObjectNode config, ShiftStack shifts) {
        this.store = store;
        this.ownsStore = ownsStore;
        this.runId = runId;
        this.name = name;
        this.config = Json.write(config);
        // The run id is part of the identity: another server run on the same tasks is another experiment.
        this.configHash = EpisodeKey.Hashing.sha256(this.config + '\u0000' + runId);
        this.shift = shifts.label();
        this.tier = tierOf(shifts);
        store.saveRun(runId, name, this.config, 0, RunStatus.RUNNING, null);
    }

    public String runId() { return runId; }

    @Override
    public synchronized void record(FinishedEpisode e) {
        record(e, shift, tier);
    }

    /** Records an episode that ran under a stack of its own (the shift proxy draws one per session from a tier). */
    public synchronized void record(FinishedEpisode e, ShiftStack shifts) {
        record(e, shifts.label(), tierOf(shifts));
    }

    private static String tierOf(ShiftStack shifts) {
        return shifts.isStatic() ? EpisodeResult.STATIC : shifts.tier() == null ? EpisodeResult.MIXED : shifts.tier().id();
    }

    private void record(FinishedEpisode e, String shift, String tier) {
        Trajectory t = e.trajectory();
        int trial = trials.merge(t.seed(), 1, Integer::sum) - 1;   // the same task again in this run is another trial
        EpisodeKey key = new EpisodeKey(configHash, t.agent(), t.env(), shift, t.seed(), trial);
        int index = e.taskIndex() == null ? recorded : e.taskIndex();
        store.saveEpisode(runId, new EpisodeResult(key, tier, index, t.outcome(), t, GoldFacts.of(e.task()), e.durationMs()));
        recorded++;
        store.saveRun(runId, name, config, recorded, RunStatus.RUNNING, null);
    }

    @Override
    public String describe() { return "results store " + store.location() + ", run " + runId; }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        store.saveRun(runId, name, config, recorded, RunStatus.COMPLETE, null);
        store.flush();
        if (ownsStore) store.close();
    }
}
