package dev.openagent.policy;

import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * Inference speed of a policy: actions per second when many episodes run in lockstep (one
 * batched forward pass per turn, how training rollouts and evaluations run), the same on every
 * core (a lockstep batch per thread), and one episode at a time (how {@code --agent policy:DIR}
 * runs). Wall time and CPU time are both reported (this thread's, or the process's when several
 * threads work): on a shared machine the CPU figure is the steadier one.
 */
public final class PolicyBench {
    /** One measurement. */
    public record Figures(String mode, int episodes, long actions, double seconds, double cpuSeconds) {
        public double actionsPerSecond() { return actions / seconds; }

        public double actionsPerCpuSecond() { return actions / cpuSeconds; }
    }

    private PolicyBench() {}

    public static List<Figures> run(Policy policy, Environment e, int episodes, long seed) {
        List<TaskRequest> requests = new TaskPlan(Split.TEST, episodes, seed, 0).requests();
        // Warm-up: the first passes load libtorch kernels.
        PolicyRunner.run(policy, "bench", jobs(e, requests.subList(0, Math.min(16, requests.size()))), 16, null, false, x -> {});
        Figures batched = time("batched x" + PolicyEval.PARALLEL, false, () -> PolicyRunner.run(policy, "bench", jobs(e, requests),
                PolicyEval.PARALLEL, null, false, x -> {}).stream().map(PolicyRunner.Episode::trajectory).toList(), episodes);
        int cores = Runtime.getRuntime().availableProcessors();
        Figures everyCore = time("batched x" + PolicyEval.PARALLEL + " on " + cores + " threads", true, () -> PolicyRunner.run(policy, "bench",
                jobs(e, requests), PolicyEval.PARALLEL, cores, null, false, x -> {}).stream().map(PolicyRunner.Episode::trajectory).toList(), episodes);
        int single = Math.max(1, episodes / 8);
        PolicyAgent agent = new PolicyAgent(policy, "bench");
        Figures one = time("one episode at a time", false, () -> requests.subList(0, single).stream()
                .map(r -> Episodes.run(e.create(), agent, r)).toList(), single);
        return cores > 1 ? List.of(batched, everyCore, one) : List.of(batched, one);
    }

    private static List<PolicyRunner.Job> jobs(Environment e, List<TaskRequest> requests) {
        return requests.stream().map(r -> new PolicyRunner.Job(e, ShiftStack.NONE, r)).toList();
    }

    /** @param process whether to count the whole process's CPU time (work on several threads) rather than this thread's */
    private static Figures time(String mode, boolean process, java.util.function.Supplier<List<Trajectory>> work, int episodes) {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        java.util.function.LongSupplier clock = process ? os::getProcessCpuTime : mx::getCurrentThreadCpuTime;
        long c0 = clock.getAsLong();
        long t0 = System.nanoTime();
        List<Trajectory> ts = work.get();
        double wall = (System.nanoTime() - t0) / 1e9;
        double cpu = (clock.getAsLong() - c0) / 1e9;
        long actions = ts.stream().mapToLong(t -> t.stats().turns()).sum();
        return new Figures(mode, episodes, actions, wall, cpu);
    }
}
