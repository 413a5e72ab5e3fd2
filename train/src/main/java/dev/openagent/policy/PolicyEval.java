package dev.openagent.policy;

import dev.openagent.envs.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftStack;

import java.util.List;

/** Evaluates a policy with the batched runner: success with a 95% Wilson interval, refusal rate. */
public final class PolicyEval {
    /** Episodes in flight per batched forward pass. */
    public static final int PARALLEL = 64;

    private PolicyEval() {}

    /**
     * @param refusalRate fraction of scored episodes the agent ended by refusing
     */
    public record Figures(int episodes, int successes, double successRate, double ciLow, double ciHigh, double refusalRate) {
        public static Figures of(List<Trajectory> all) {
            List<Trajectory> scored = all.stream().filter(t -> t.outcome().end() != Outcome.End.INFRA_ERROR).toList();
            int n = scored.size();
            int k = (int) scored.stream().filter(Trajectory::success).count();
            int refused = (int) scored.stream().filter(t -> t.outcome().refused()).count();
            double[] ci = wilson(k, n);
            return new Figures(n, k, round(n == 0 ? 0 : (double) k / n), round(ci[0]), round(ci[1]), round(n == 0 ? 0 : (double) refused / n));
        }
    }

    /** Runs {@code tasks} tasks of a split (task seeds from {@code seed}, as {@code run} chooses them) under a shift stack. */
    public static List<Trajectory> run(Policy policy, String agent, Environment env, ShiftStack shifts, Split split, int tasks, long seed) {
        List<PolicyRunner.Job> jobs = new TaskPlan(split, tasks, seed, 0).requests().stream()
                .map(r -> new PolicyRunner.Job(env, shifts, r)).toList();
        return PolicyRunner.run(policy, agent, jobs, PARALLEL, null, false, e -> {}).stream()
                .map(PolicyRunner.Episode::trajectory).toList();
    }

    public static Figures staticTest(Policy policy, String env, int tasks, long seed) {
        return Figures.of(run(policy, "policy", Environments.get(env), ShiftStack.NONE, Split.TEST, tasks, seed));
    }

    /** The 95% Wilson score interval of k successes in n trials ({0, 1} when n is 0). */
    public static double[] wilson(int k, int n) {
        if (n == 0) return new double[]{0, 1};
        double z = 1.959963984540054;
        double p = (double) k / n;
        double denom = 1 + z * z / n;
        double center = (p + z * z / (2.0 * n)) / denom;
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
        return new double[]{Math.max(0, center - half), Math.min(1, center + half)};
    }

    static double round(double v) { return Math.round(v * 10000) / 10000.0; }
}
