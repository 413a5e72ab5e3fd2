package dev.openagent.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Wall-clock and CPU seconds per phase of a training run, on the calling thread. CPU time is what
 * to compare across runs on a shared machine: wall time stretches with the load, CPU time barely
 * (libtorch runs on the calling thread with one intra-op thread).
 */
final class Phases {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private record Spent(double wall, double cpu) {
        Spent plus(double w, double c) { return new Spent(wall + w, cpu + c); }
    }

    private final Map<String, Spent> spent = new LinkedHashMap<>();
    private long cpuMark;

    /** Starts a phase: returns the wall-clock mark to pass to {@link #stop}. */
    long start() {
        cpuMark = cpu();
        return System.nanoTime();
    }

    /** Ends the phase started at {@code mark} (phases do not nest). */
    void stop(String phase, long mark) {
        double wall = (System.nanoTime() - mark) / 1e9;
        double cpu = (cpu() - cpuMark) / 1e9;
        spent.merge(phase, new Spent(wall, cpu), (a, b) -> a.plus(b.wall(), b.cpu()));
    }

    private static long cpu() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : 0;
    }

    /** {@code {"data": {"wall": 12.3, "cpu": 10.1}, ...}} in seconds, to the hundredth. */
    ObjectNode json() {
        ObjectNode o = Json.object();
        spent.forEach((k, v) -> o.putObject(k).put("wall", round(v.wall())).put("cpu", round(v.cpu())));
        return o;
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        spent.forEach((k, v) -> b.append(b.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %.1f s (cpu %.1f s)", k, v.wall(), v.cpu())));
        return b.toString();
    }

    private static double round(double x) { return Math.round(x * 100) / 100.0; }
}
