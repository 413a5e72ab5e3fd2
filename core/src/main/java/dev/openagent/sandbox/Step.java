package dev.openagent.sandbox;

import java.util.List;

/**
 * What {@link Env#step} returns, Gymnasium style: what the agent observes, the reward, whether
 * the episode is over and, when it is, the outcome.
 */
public record Step(List<Observation> observations, double reward, boolean done, Outcome outcome) {
    public Step {
        observations = List.copyOf(observations);
        if (done && outcome == null) throw new IllegalArgumentException("a finished step needs an outcome");
    }

    public static Step of(List<Observation> observations) {
        return new Step(observations, 0.0, false, null);
    }

    public static Step end(List<Observation> observations, Outcome outcome) {
        return new Step(observations, outcome.success() ? 1.0 : 0.0, true, outcome);
    }

    public Step withObservations(List<Observation> replaced) {
        return new Step(replaced, reward, done, outcome);
    }

    public Step withOutcome(Outcome replaced) {
        return new Step(observations, replaced.success() ? 1.0 : 0.0, true, replaced);
    }

    public long errorCount() {
        return observations.stream().filter(Observation::isError).count();
    }
}
