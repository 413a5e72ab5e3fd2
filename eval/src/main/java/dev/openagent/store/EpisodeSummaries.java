package dev.openagent.store;

import dev.openagent.metrics.Failure;
import dev.openagent.results.EpisodeResult;

import java.util.List;
import java.util.Map;

/**
 * A run's episodes as a scorecard needs them, read without their trajectories: each episode's trajectory is a summary
 * (its task, outcome, turns, tool calls and errors, tokens) with no messages, tools or shift records, so its failure
 * category comes from the store ({@code failures}, by episode id) and not from {@link dev.openagent.metrics.Taxonomy}.
 * Not for transcripts.
 */
public record EpisodeSummaries(List<EpisodeResult> episodes, Map<String, Failure> failures) {
    public EpisodeSummaries {
        episodes = List.copyOf(episodes);
        failures = Map.copyOf(failures);
    }
}
