package dev.openagent.byo;

import com.sun.management.OperatingSystemMXBean;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.LocalRunner;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Split;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Oracle episodes per second against the real server-filesystem with 1, 4 and 16 workers, and the share of
 * CPU time spent in this JVM versus the server processes. A benchmark, not a default test:
 * {@code ./mvnw -pl byo -am test -Dexcluded.groups=none -Dtest=FileEnvironmentBench -Dsurefire.failIfNoSpecifiedTests=false}.
 * Rounds alternate between the worker counts; the medians are printed.
 */
@Tag("benchmark")
class FileEnvironmentBench {
    private static final int EPISODES = Integer.getInteger("byo.bench.episodes", 160);
    private static final int ROUNDS = Integer.getInteger("byo.bench.rounds", 3);

    @Test
    void oracleThroughputAgainstServerFilesystem() {
        ReferenceServers.require();
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        int[] counts = {1, 4, 16};
        Map<Integer, List<double[]>> rounds = new LinkedHashMap<>();
        try (FileEnvironment env = FileEnvironment.load(ReferenceServers.FILESYSTEM)) {
            for (int w : counts) run(env, w, 2L * w, -1);   // warm up: every worker's server started
            for (int r = 0; r < ROUNDS; r++) {
                for (int w : counts) {
                    long cpu0 = os.getProcessCpuTime();
                    long server0 = serverCpu();
                    long t0 = System.nanoTime();
                    run(env, w, EPISODES, r);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    double ours = (os.getProcessCpuTime() - cpu0) / 1e9;
                    double server = (serverCpu() - server0) / 1e9;
                    rounds.computeIfAbsent(w, k -> new ArrayList<>()).add(new double[]{EPISODES / seconds, ours / (ours + server)});
                }
            }
        }
        System.out.printf(Locale.ROOT, "server-filesystem, oracle, %d episodes per round, %d rounds, %d cores, median:%n",
                EPISODES, ROUNDS, Runtime.getRuntime().availableProcessors());
        for (var e : rounds.entrySet()) {
            System.out.printf(Locale.ROOT, "  %2d workers: %7.1f episodes/s   CPU in this JVM %4.0f%%, in the servers %4.0f%%%n", e.getKey(),
                    median(e.getValue(), 0), 100 * median(e.getValue(), 1), 100 - 100 * median(e.getValue(), 1));
        }
    }

    private static void run(FileEnvironment env, int workers, long episodes, int round) {
        List<Trajectory> ts = LocalRunner.run(env::create, new OracleAgent(), new TaskPlan(Split.TEST, (int) episodes, 100 + round, 0).requests(), workers);
        assertTrue(ts.stream().allMatch(t -> t.success()), "the oracle solves every task");
    }

    /** CPU time of every process this JVM started (the servers), so far. */
    private static long serverCpu() {
        return ProcessHandle.current().descendants().mapToLong(p -> p.info().totalCpuDuration().orElse(Duration.ZERO).toNanos()).sum();
    }

    private static double median(List<double[]> xs, int i) {
        double[] v = xs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
