package dev.openagent.policy;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.openagent.episode.Trajectory;
import dev.openagent.metrics.Rate;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftStack;

import java.util.List;
import java.util.function.Consumer;

/** Evaluates a policy with the batched runner: success with its 95% Wilson interval ({@link Rate}), refusal rate. */
public final class PolicyEval {
    /** Episodes in flight per batched forward pass. */
    public static final int PARALLEL = 64;

    private PolicyEval() {}

    /**
     * Written in JSON (adapt's rows, a checkpoint's training.json) with the names every other figure of the toolkit
     * has there: success_rate, ci_low, ci_high, refusal_rate.
     *
     * @param refusalRate fraction of scored episodes the agent ended by refusing
     */
    public record Figures(int episodes, int successes, @JsonProperty("success_rate") double successRate, @JsonProperty("ci_low") double ciLow,
                          @JsonProperty("ci_high") double ciHigh, @JsonProperty("refusal_rate") double refusalRate) {
        public static Figures of(List<Trajectory> all) {
            List<Trajectory> scored = all.stream().filter(t -> t.outcome().end() != Outcome.End.INFRA_ERROR).toList();
            int n = scored.size();
            int k = (int) scored.stream().filter(Trajectory::success).count();
            int refused = (int) scored.stream().filter(t -> t.outcome().refused()).count();
            Rate r = Rate.of(k, n);
            return r == null ? new Figures(0, 0, 0, 0, 1, 0)
                    : new Figures(n, k, round(r.value()), round(r.lo()), round(r.hi()), round((double) refused / n));
        }
    }

    /** Runs {@code tasks} tasks of a split (task seeds from {@code seed}, as {@code run} chooses them) under a shift stack. */
    public static List<Trajectory> run(Policy policy, String agent, Environment env, ShiftStack shifts, Split split, int tasks, long seed) {
        return episodes(policy, agent, env, shifts, split, tasks, seed).stream().map(PolicyRunner.Episode::trajectory).toList();
    }

    /** As {@link #run}, keeping each episode's task (for reports). */
    public static List<PolicyRunner.Episode> episodes(Policy policy, String agent, Environment env, ShiftStack shifts, Split split,
                                                      int tasks, long seed) {
        return episodes(policy, agent, env, shifts, split, tasks, seed, e -> {});
    }

    /** As {@link #episodes}, handing each episode to {@code onDone} as it finishes (progress displays). */
    public static List<PolicyRunner.Episode> episodes(Policy policy, String agent, Environment env, ShiftStack shifts, Split split,
                                                      int tasks, long seed, Consumer<PolicyRunner.Episode> onDone) {
        return PolicyRunner.run(policy, agent, jobs(env, shifts, split, tasks, seed), PARALLEL, null, false, onDone);
    }

    /** Static test-split success, on every core (for a policy evaluated on its own, as after {@code openagent train}). */
    public static Figures staticTest(Policy policy, Environment env, int tasks, long seed) {
        List<PolicyRunner.Job> jobs = jobs(env, ShiftStack.NONE, Split.TEST, tasks, seed);
        return Figures.of(PolicyRunner.run(policy, "policy", jobs, PARALLEL, Runtime.getRuntime().availableProcessors(), null, false, e -> {})
                .stream().map(PolicyRunner.Episode::trajectory).toList());
    }

    /**
     * Runs jobs of any conditions together on {@code threads} threads, results in job order. One call for
     * a study's every condition keeps the batched forward passes full: run condition by condition, each
     * condition's last few episodes take forward passes of their own.
     */
    public static List<PolicyRunner.Episode> episodes(Policy policy, String agent, List<PolicyRunner.Job> jobs, int threads,
                                                      Consumer<PolicyRunner.Episode> onDone) {
        return PolicyRunner.run(policy, agent, jobs, PARALLEL, threads, null, false, onDone);
    }

    /** The tasks {@code run} chooses for this split and seed, each a job under the shift stack. */
    public static List<PolicyRunner.Job> jobs(Environment env, ShiftStack shifts, Split split, int tasks, long seed) {
        return new TaskPlan(split, tasks, seed, 0).requests().stream().map(r -> new PolicyRunner.Job(env, shifts, r)).toList();
    }

    public static double round(double v) { return Math.round(v * 10000) / 10000.0; }
}
