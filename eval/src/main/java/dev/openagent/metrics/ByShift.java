package dev.openagent.metrics;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Outcome;

import java.util.List;

/**
 * The headline numbers of one shift condition. {@code refusal_rate} is the share of scored
 * episodes that ended in a refusal: on task.unsolvable the refusal rate the paper reports, on
 * solvable conditions the false-refusal rate.
 */
public record ByShift(int episodes,
                      @JsonProperty("success_rate") double successRate,
                      @JsonProperty("refusal_rate") double refusalRate) {

    public static ByShift of(List<Trajectory> all) {
        List<Trajectory> scored = all.stream().filter(t -> t.outcome().end() != Outcome.End.INFRA_ERROR).toList();
        long ok = scored.stream().filter(Trajectory::success).count();
        long refused = scored.stream().filter(t -> t.outcome().refused()).count();
        int n = scored.size();
        return new ByShift(all.size(), n == 0 ? 0 : Summary.round((double) ok / n), n == 0 ? 0 : Summary.round((double) refused / n));
    }
}
