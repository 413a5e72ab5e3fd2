package dev.openagent.study;

import dev.openagent.episode.Trajectory;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** What every study shares: training beside evaluation, timings, and episodes as the evaluation report reads them. */
public final class StudyKit {
    private StudyKit() {}

    /**
     * Trains policies on {@link #TRAINERS} threads while trained policies are evaluated on one more,
     * so both cores of a laptop are busy. A training that continues from another waits for it inside
     * its job: jobs start in the order they are submitted, so a job's predecessors (submitted before
     * it) are running or done, and no job waits on one queued behind it.
     */
    static final class Pipeline implements AutoCloseable {
        /** Trainings at once: two cores. Each runs on its own thread with its own policy (see Djl.backward). */
        static final int TRAINERS = 2;
        private final ExecutorService trainers = Executors.newFixedThreadPool(TRAINERS);
        private final ExecutorService evaluator = Executors.newSingleThreadExecutor();
        private final List<Future<?>> pending = new ArrayList<>();

        /** Queues a training; it starts when a training thread is free. */
        synchronized <T> Future<T> train(Callable<T> job) {
            Future<T> f = trainers.submit(job);
            pending.add(f);
            return f;
        }

        /** Queues an evaluation; evaluations run one at a time, in the order queued, beside the trainings. */
        synchronized void evaluate(Runnable job) {
            pending.add(evaluator.submit(job));
        }

        /** Waits for every queued job; the first failure is rethrown as it was. */
        void await() {
            for (int i = 0; ; i++) {
                Future<?> f;
                synchronized (this) {
                    if (i >= pending.size()) return;
                    f = pending.get(i);
                }
                get(f);
            }
        }

        @Override
        public void close() {
            trainers.shutdownNow();
            evaluator.shutdownNow();
        }
    }

    /** A job's result; its failure is rethrown as it was (a runtime exception), an interruption as such. */
    public static <T> T get(Future<T> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException re) throw re;
            if (cause instanceof Error err) throw err;
            throw new IllegalStateException(cause);
        }
    }

    /** Seconds since {@code t0} (a {@link System#nanoTime()}), to the hundredth. */
    public static double since(long t0) {
        return Math.round((System.nanoTime() - t0) / 1e7) / 100.0;
    }

    /** One evaluated episode as the evaluation report reads it. */
    static EpisodeResult result(String configHash, String agent, String tier, String shift, int index, int trial, PolicyRunner.Episode e) {
        Trajectory tr = e.trajectory();
        EpisodeKey key = new EpisodeKey(configHash, agent, tr.env(), shift, tr.seed(), trial);
        return new EpisodeResult(key, tier, index, tr.outcome(), tr, GoldFacts.of(e.task()), 0);
    }
}
