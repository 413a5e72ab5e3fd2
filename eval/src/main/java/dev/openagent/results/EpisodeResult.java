package dev.openagent.results;

import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Outcome;

/**
 * One finished episode as the results store keeps it and the metrics read it.
 *
 * @param tier       "static", a tier id, or "mixed" for a stack spanning tiers
 * @param taskIndex  position of the task in the run's task plan
 * @param trajectory null only when the episode could not start (an internal error)
 */
public record EpisodeResult(EpisodeKey key, String tier, int taskIndex, Outcome outcome, Trajectory trajectory,
                            GoldFacts gold, long durationMs) {
    public static final String STATIC = "static";
    public static final String MIXED = "mixed";

    public String id() { return key.id(); }

    public String agent() { return key.agent(); }

    public String env() { return key.env(); }

    public String shift() { return key.shift(); }

    public boolean success() { return outcome.success(); }

    /**
     * Null when nobody attacked the episode, else whether the attack happened. Read from the trajectory, which
     * the store keeps whole (its outcome columns hold success, end and detail only).
     */
    public Boolean attacked() {
        return trajectory != null ? trajectory.outcome().attacked() : outcome.attacked();
    }

    public boolean infraError() { return outcome.end() == Outcome.End.INFRA_ERROR; }

    /** Whether the episode counts in the rates: not an infrastructure error, and judged (a proxy session without a task is not). */
    public boolean scored() { return !infraError() && outcome.end() != Outcome.End.UNSCORED; }

    public boolean solvable() { return trajectory == null || trajectory.solvable(); }

    public boolean isStatic() { return key.shift().equals("none"); }

    public Stats stats() {
        return trajectory == null ? new Stats(0, 0, 0, null, 0, 0) : trajectory.stats();
    }

    public long tokens() { return stats().promptTokens() + stats().completionTokens(); }
}
