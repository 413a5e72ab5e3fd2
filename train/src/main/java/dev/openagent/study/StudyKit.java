package dev.openagent.study;

import dev.openagent.episode.Trajectory;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.run.EpisodeKey;
import dev.openagent.run.EpisodeResult;
import dev.openagent.run.GoldFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** What every study shares: training beside evaluation, timings, and episodes as the evaluation report reads them. */
final class StudyKit {
    private StudyKit() {}

    /**
     * Trains on the calling thread while trained policies are evaluated on one other thread, so two
     * cores are both used (training cannot run in parallel: one gradient collector per JVM).
     */
    static final class Pipeline implements AutoCloseable {
        private final ExecutorService evaluator = Executors.newSingleThreadExecutor();
        private final List<Future<?>> pending = new ArrayList<>();

        /** Queues an evaluation; it runs while the caller trains the next policy. */
        void evaluate(Runnable job) {
            pending.add(evaluator.submit(job));
        }

        /** Waits for every queued evaluation; the first failure is rethrown as it was. */
        void await() {
            try {
                for (Future<?> f : pending) f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            }
        }

        @Override
        public void close() {
            evaluator.shutdownNow();
        }
    }

    /** Seconds since {@code t0} (a {@link System#nanoTime()}), to the hundredth. */
    static double since(long t0) {
        return Math.round((System.nanoTime() - t0) / 1e7) / 100.0;
    }

    /** One evaluated episode as the evaluation report reads it. */
    static EpisodeResult result(String configHash, String agent, String tier, String shift, int index, int trial, PolicyRunner.Episode e) {
        Trajectory tr = e.trajectory();
        EpisodeKey key = new EpisodeKey(configHash, agent, tr.env(), shift, tr.seed(), trial);
        return new EpisodeResult(key, tier, index, tr.outcome(), tr, GoldFacts.of(e.task()), 0);
    }
}
