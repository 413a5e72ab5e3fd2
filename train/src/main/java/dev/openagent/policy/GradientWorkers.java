package dev.openagent.policy;

import ai.djl.ndarray.NDArray;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * Threads that share a training step's forward and backward passes (see
 * {@link Policy#trainGrouped(List, ai.djl.training.optimizer.Optimizer, GradientWorkers)}). Worker 0
 * is the calling thread on the policy's own network; every other worker has a thread and a copy of
 * the network, its weights brought up to date after each optimiser step ({@link #synchronize}):
 * libtorch accumulates one gradient per leaf tensor, so two threads cannot back-propagate into one.
 * (A first version shared the weights' memory through views and wrote the summed gradient with
 * {@code NDArray.set}; libtorch's backward pass crashed. Copies updated in place do not.)
 */
public final class GradientWorkers implements AutoCloseable {
    private final List<PolicyNet> nets = new ArrayList<>();
    private final ExecutorService pool;

    private GradientWorkers(PolicyNet own, int workers) {
        nets.add(own);
        for (int i = 1; i < workers; i++) nets.add(own.copy());
        // Platform threads: the passes are native calls, which would pin a virtual thread's carrier anyway.
        pool = Executors.newFixedThreadPool(workers - 1);
    }

    /** Workers for training {@code policy} on {@code threads} threads; null for one thread (nothing to share). */
    public static GradientWorkers of(Policy policy, int threads) {
        return threads <= 1 ? null : new GradientWorkers(policy.net(), threads);
    }

    /**
     * Runs {@code task(net, i)} for i = 0 .. n - 1, each on one worker's network, workers taking the next
     * index as they finish; results in index order.
     */
    <T> List<T> map(int n, BiFunction<PolicyNet, Integer, T> task) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) order[i] = i;
        return map(order, task);
    }

    /**
     * As {@link #map(int, BiFunction)}, workers taking the indices in this order (the costliest first
     * keeps one long task from finishing alone at the end); results in index order.
     */
    <T> List<T> map(int[] order, BiFunction<PolicyNet, Integer, T> task) {
        AtomicInteger next = new AtomicInteger();
        Object[] out = new Object[order.length];
        List<Future<?>> others = new ArrayList<>();
        for (int w = 1; w < nets.size(); w++) {
            PolicyNet net = nets.get(w);
            others.add(pool.submit(() -> drain(net, order, next, out, task)));
        }
        drain(nets.getFirst(), order, next, out, task);
        for (Future<?> f : others) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while training", e);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) throw r;
                if (e.getCause() instanceof Error err) throw err;
                throw new IllegalStateException(e.getCause());
            }
        }
        @SuppressWarnings("unchecked") List<T> result = (List<T>) List.of(out);
        return result;
    }

    private static <T> void drain(PolicyNet net, int[] order, AtomicInteger next, Object[] out, BiFunction<PolicyNet, Integer, T> task) {
        for (int k = next.getAndIncrement(); k < order.length; k = next.getAndIncrement()) out[order[k]] = task.apply(net, order[k]);
    }

    /** Brings every worker's copy up to the policy's weights (after an optimiser step). */
    void synchronize() {
        for (int w = 1; w < nets.size(); w++) nets.get(w).copyWeights(nets.getFirst());
    }

    /** One group's loss and gradient, parameter by parameter in the network's order. */
    record Gradient(float loss, float[][] byParam) {}

    /** Takes a network's gradients (parameter order) and clears them. */
    static float[][] takeGradients(PolicyNet net) {
        float[][] out = new float[net.params.size()][];
        int i = 0;
        for (NDArray p : net.params.values()) {
            try (NDArray grad = p.getGradient()) {
                out[i++] = grad.toFloatArray();
                grad.subi(grad);
            }
        }
        return out;
    }

    @Override
    public void close() {
        pool.shutdownNow();
        for (int w = 1; w < nets.size(); w++) nets.get(w).close();
    }
}
