package dev.openagent.run;

import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs episodes in this process, in parallel, one environment instance per worker thread.
 * Results come back in request order whatever the scheduling, so output is reproducible.
 */
public final class LocalRunner {
    private LocalRunner() {}

    public static List<Trajectory> run(Supplier<Env> envs, Agent agent, List<TaskRequest> requests, int threads) {
        return run(envs, agent, requests, threads, t -> {});
    }

    /**
     * As {@link #run(Supplier, Agent, List, int)}, telling {@code onDone} of each finished episode. An
     * episode whose environment fails (an MCP server that crashed, hung or timed out: an
     * {@link InfrastructureException} out of reset or step) is run again from the start on a fresh
     * instance, up to {@link EvalRunner#ENV_ATTEMPTS} attempts in all as in {@code eval}; after that the
     * exception is rethrown, saying how many attempts failed.
     */
    public static List<Trajectory> run(Supplier<Env> envs, Agent agent, List<TaskRequest> requests, int threads,
                                       Consumer<Trajectory> onDone) {
        if (threads <= 1 || requests.size() <= 1) {
            Env[] env = {envs.get()};
            List<Trajectory> out = new ArrayList<>(requests.size());
            for (TaskRequest r : requests) {
                Trajectory t = withRetries(envs, env[0], agent, r, fresh -> env[0] = fresh);
                onDone.accept(t);
                out.add(t);
            }
            return out;
        }
        ThreadLocal<Env> local = ThreadLocal.withInitial(envs);
        return inOrder(requests, threads, r -> {
            Trajectory t = withRetries(envs, local.get(), agent, r, local::set);
            onDone.accept(t);
            return t;
        });
    }

    /** One episode on {@code env}; on an environment failure, again on a fresh instance (handed to {@code replace}). */
    private static Trajectory withRetries(Supplier<Env> envs, Env env, Agent agent, TaskRequest request, Consumer<Env> replace) {
        for (int attempt = 1; ; attempt++) {
            try {
                return Episodes.run(env, agent, request);
            } catch (InfrastructureException e) {
                if (attempt >= EvalRunner.ENV_ATTEMPTS) {
                    throw new InfrastructureException("environment failed " + attempt + " times: " + e.getMessage(), e);
                }
                env = envs.get();
                replace.accept(env);
            }
        }
    }

    /**
     * {@code work} applied to every item on {@code threads} threads, the results in the items' order;
     * the first exception thrown is rethrown.
     */
    public static <T, R> List<R> inOrder(List<T> items, int threads, Function<T, R> work) {
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<R>> futures = new ArrayList<>(items.size());
            for (T item : items) futures.add(pool.submit(() -> work.apply(item)));
            List<R> out = new ArrayList<>(items.size());
            for (Future<R> f : futures) out.add(f.get());
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
        }
    }
}
