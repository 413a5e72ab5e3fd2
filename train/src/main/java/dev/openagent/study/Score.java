package dev.openagent.study;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.openagent.episode.Trajectory;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Rate;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.policy.PolicyRunner;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a set of evaluated episodes shows: success as avg@k (each task's mean success over its k
 * trials, averaged over tasks) with a 95% interval, turns and tokens per episode, and the failure
 * taxonomy (count per category; successes under {@code success}).
 * <p>
 * The interval is Wilson's over the tasks, not the episodes: the k trials of one task are
 * correlated, so the tasks are the independent draws (with k = 1 this is the plain Wilson interval).
 *
 * @param tokens tokens per episode: what the policy read to decide each action plus what it wrote
 */
public record Score(int tasks, int k, int episodes,
                    @JsonProperty("success_rate") double successRate,
                    @JsonProperty("ci_low") double ciLow,
                    @JsonProperty("ci_high") double ciHigh,
                    double turns,
                    double tokens,
                    Map<String, Integer> failures) {
    public Score {
        failures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(failures));
    }

    /**
     * @param episodes each task's k trials consecutive (task 0's trials, then task 1's, ...)
     */
    public static Score of(List<PolicyRunner.Episode> episodes, int k) {
        if (k < 1) throw new IllegalArgumentException("k must be at least 1");
        if (episodes.size() % k != 0) throw new IllegalArgumentException(episodes.size() + " episodes are not " + k + " trials per task");
        int tasks = episodes.size() / k;
        double sum = 0;
        double turns = 0;
        double tokens = 0;
        Map<Failure, Integer> failures = new EnumMap<>(Failure.class);
        int scoredTasks = 0;
        for (int t = 0; t < tasks; t++) {
            int scored = 0;
            int ok = 0;
            for (PolicyRunner.Episode e : episodes.subList(t * k, (t + 1) * k)) {
                Trajectory tr = e.trajectory();
                failures.merge(Taxonomy.classify(tr.outcome(), tr, GoldFacts.of(e.task())), 1, Integer::sum);
                turns += tr.stats().turns();
                tokens += tr.stats().promptTokens() + tr.stats().completionTokens();
                if (tr.outcome().end() == Outcome.End.INFRA_ERROR) continue;
                scored++;
                if (tr.success()) ok++;
            }
            if (scored == 0) continue;
            sum += (double) ok / scored;
            scoredTasks++;
        }
        Map<String, Integer> byId = new LinkedHashMap<>();
        failures.forEach((f, n) -> byId.put(f.id(), n));
        int n = episodes.size();
        if (scoredTasks == 0) return new Score(tasks, k, n, 0, 0, 1, n == 0 ? 0 : round(turns / n), n == 0 ? 0 : round(tokens / n), byId);
        double mean = sum / scoredTasks;
        Rate r = Rate.of(Math.round(mean * scoredTasks), scoredTasks);
        return new Score(tasks, k, n, round(mean), round(Math.min(mean, r.lo())), round(Math.max(mean, r.hi())),
                round(turns / n), round(tokens / n), byId);
    }

    static double round(double v) { return Math.round(v * 10000) / 10000.0; }
}
