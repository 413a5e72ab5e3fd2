package dev.openagent.run;

import dev.openagent.episode.Agent;

import java.util.Map;
import java.util.function.IntFunction;

/**
 * An agent as an evaluation needs it: its label in results, the settings that determine its
 * behaviour (hashed into each episode's identity), and its instance for each trial (trials of a
 * sampled model draw different samples; deterministic agents may return the same instance).
 */
public record EvalAgent(String label, Map<String, Object> identity, IntFunction<Agent> trials) {
    public EvalAgent {
        if (label == null || label.isBlank()) throw new IllegalArgumentException("agent label is blank");
        identity = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(identity));
    }

    public Agent forTrial(int trial) { return trials.apply(trial); }
}
