package dev.openagent.metrics;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Outcome;

import java.util.List;

/**
 * The headline numbers of a set of episodes. Rates over scored episodes: infrastructure errors
 * are counted apart and never scored as failures.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Summary(int episodes,
                      int errors,
                      int successes,
                      double successRate,
                      long toolCalls,
                      long toolErrors,
                      double toolErrorRate,
                      double avgTurns,
                      Double refusalRate,
                      Double falseRefusalRate) {

    public static Summary of(List<Trajectory> all) {
        List<Trajectory> scored = all.stream().filter(t -> t.outcome().end() != Outcome.End.INFRA_ERROR && t.outcome().end() != Outcome.End.UNSCORED).toList();
        int n = scored.size();
        int ok = (int) scored.stream().filter(Trajectory::success).count();
        long calls = scored.stream().mapToLong(t -> t.stats().toolCalls()).sum();
        long errs = scored.stream().mapToLong(t -> t.stats().toolErrors()).sum();
        double turns = scored.stream().mapToInt(t -> t.stats().turns()).average().orElse(0);
        List<Trajectory> unsolvable = scored.stream().filter(t -> !t.solvable()).toList();
        List<Trajectory> solvable = scored.stream().filter(Trajectory::solvable).toList();
        Double refusal = unsolvable.isEmpty() ? null : rate(unsolvable.stream().filter(t -> t.outcome().refused()).count(), unsolvable.size());
        Double falseRefusal = solvable.isEmpty() ? null : rate(solvable.stream().filter(t -> t.outcome().refused()).count(), solvable.size());
        return new Summary(all.size(), all.size() - n, ok, rate(ok, n), calls, errs, rate(errs, calls), round(turns), refusal, falseRefusal);
    }

    private static double rate(long k, long n) {
        return n == 0 ? 0.0 : round((double) k / n);
    }

    static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
