package dev.openagent.study;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the cross-environment studies ({@link EnvStudies}) speak of: which protocol, how to train and evaluate, and
 * what a study yields (its rows, heatmap and summary). Apart from the protocols themselves, so that {@link Lab}, which
 * runs them, and the reports read these types without depending on the protocols.
 */
public final class CrossEnvStudy {
    private CrossEnvStudy() {}

    /** Easy tasks have at most this difficulty (dependent hops); hard ones at least {@link #HARD_MIN}. */
    public static final int EASY_MAX = 2;
    public static final int HARD_MIN = 3;
    /** The untrained policy (random weights): the baseline of gains and forward transfer. */
    public static final String UNTRAINED = "untrained";

    public enum Kind {
        DIFFICULTY("Train on easy tasks (difficulty 1-2) and test on hard ones (3-4) of the same environment, beside hard-only, "
                + "mixed-difficulty and easy-then-hard curriculum training at the same number of steps. The table shows test "
                + "success on easy and hard tasks per training regime: within-environment generalisation shows as easy-only "
                + "training lifting hard-task success well above the untrained policy.", 300, 600),
        TRANSFER("Train one policy per environment and test every policy on every environment's test tasks. The heatmap is "
                + "the transfer matrix (rows: trained on, columns: tested on); the diagonal is held-in success and the rest "
                + "held-out, each compared with the untrained policy as a gain.", 3600, 2400),
        SEQUENTIAL("Train on the environments one after another, each stage continuing from the previous checkpoint with the "
                + "same number of steps, and test every environment after each stage. The heatmap shows success per stage "
                + "and environment: forgetting is the drop on an environment from just after its stage to the end, forward "
                + "transfer what earlier stages gave an environment before it was trained on.", 300, 600),
        MIXTURE("Train one policy on a mixture of the environments (episodes drawn from each in turn) for as many steps as "
                + "all single-environment runs together, and compare it with sequential training at the same total and with "
                + "single-environment specialists. The heatmap shows each strategy's success per environment; balance is the "
                + "worst environment's success.", 300, 600);

        private final String protocol;
        private final int quickSteps;
        private final int fullSteps;

        /**
         * @param quickSteps SFT/PAFT steps per training run at the quick budget (batches of 32)
         * @param fullSteps  the same at the full budget (batches of 64)
         */
        Kind(String protocol, int quickSteps, int fullSteps) {
            this.protocol = protocol;
            this.quickSteps = quickSteps;
            this.fullSteps = fullSteps;
        }

        public String id() { return name().toLowerCase(Locale.ROOT); }

        /** The protocol in two sentences, as the report states it. */
        public String protocol() { return protocol; }
    }

    /**
     * How to train and evaluate.
     *
     * @param steps       per training run: optimiser steps (sft, paft) or policy-gradient iterations (rl)
     * @param warmupSteps rl without {@code init}: SFT steps of the warm start each RL run begins from
     * @param tasks       test tasks per evaluated cell (environment, or environment and difficulty)
     * @param k           trials per test task (k &gt; 1 samples actions; 1 decodes greedily)
     * @param init        start every first training run from this checkpoint (null: random weights, or an SFT warm start for rl)
     */
    public record Settings(String budget, Trainer.Method method, int steps, int warmupSteps, double alpha, int batch, int tasks, int k,
                           long seed, Path init, PolicyConfig config) {
        public Settings {
            if (steps < 1 || warmupSteps < 1) throw new UserInputException("steps must be at least 1");
            if (tasks < 1) throw new UserInputException("test tasks must be at least 1");
            if (k < 1) throw new UserInputException("k must be at least 1");
            if (batch < 1) throw new UserInputException("batch must be at least 1");
            if (alpha < 0 || alpha > 1) throw new UserInputException("alpha must be in [0, 1]");
        }

        /**
         * Minutes on two cores (see docs/studies.md for the measured times): the study's quick steps
         * ({@link Kind}) of 32 examples, which cost about as much CPU as half as many of 64 but learn more
         * (twice the updates), and 40 test tasks per cell. The transfer study trains longer than the others:
         * its diagonal is each environment learned alone, and at 300 steps travel and household were not.
         */
        public static Settings quick(Kind kind, Trainer.Method method, long seed) {
            return new Settings("quick", method, method == Trainer.Method.RL ? 6 : kind.quickSteps, 300, 0.3, 32, 40, 1, seed, null, PolicyConfig.defaults());
        }

        public static Settings full(Kind kind, Trainer.Method method, long seed) {
            return new Settings("full", method, method == Trainer.Method.RL ? 30 : kind.fullSteps, 600, 0.3, 64, 200, 1, seed, null, PolicyConfig.defaults());
        }

        public Settings withSteps(int n) { return new Settings(budget, method, n, warmupSteps, alpha, batch, tasks, k, seed, init, config); }

        public Settings withAlpha(double a) { return new Settings(budget, method, steps, warmupSteps, a, batch, tasks, k, seed, init, config); }

        public Settings withTasks(int n, int trials) { return new Settings(budget, method, steps, warmupSteps, alpha, batch, n, trials, seed, init, config); }

        public Settings withInit(Path dir) { return new Settings(budget, method, steps, warmupSteps, alpha, batch, tasks, k, seed, dir, config); }

        /** A smaller network, batch and warm start (tests). */
        public Settings withConfig(PolicyConfig c, int batchSize, int warmup) {
            return new Settings(budget, method, steps, warmup, alpha, batchSize, tasks, k, seed, init, c);
        }
    }

    /** An environment left out, and why. */
    public record Excluded(String env, String reason) {}

    /**
     * One evaluated cell: a policy (and the stage that produced it, for sequential training), what it
     * was trained on, the environment it was tested on and the difficulty of its tasks ({@code all}, {@code easy}, {@code hard}), and its score.
     */
    public record Row(String policy, Integer stage, String train, String env, String difficulty, @JsonUnwrapped Score score) {}

    /**
     * The study's heatmap: rows (policies, stages or strategies) by columns (test environments or
     * difficulties), success rates; null where a cell was not evaluated.
     */
    public record Grid(String rows, String columns, List<String> rowLabels, List<String> columnLabels, List<List<Double>> values) {}

    /**
     * A study's outcome. {@code summary} holds the protocol's own figures (the transfer matrix and
     * gains, forgetting and forward transfer, the strategies side by side, the difficulty table).
     */
    public record Result(Kind kind, Settings settings, List<String> envs, List<Excluded> excluded, List<Row> rows, Grid grid,
                         ObjectNode summary, List<String> notes, Map<String, ObjectNode> training, Map<String, Double> seconds) {}
}
