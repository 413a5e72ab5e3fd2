package dev.openagent.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/**
 * The metrics of one group of episodes (a run, a shift, a tier, an agent...). Rates are over
 * scored episodes: infrastructure errors are counted in {@code errors} and nowhere else. Tool calls,
 * tool errors, turns and tokens count every finished episode, proxy sessions without a task (recorded,
 * not scored) included.
 *
 * @param successCi        95% Wilson interval of the success rate
 * @param refusalRate      refusals among unsolvable tasks (null when there were none)
 * @param falseRefusalRate refusals among solvable tasks (null when there were none)
 * @param attackSuccessRate attacked episodes (security shifts) in which the attacker's action happened (null when none was attacked);
 *                         {@code success_rate} is then the utility
 * @param toolListTokens   what the tool list shown at the start costs in tokens, sent once a turn (a mean over finished
 *                         episodes; {@link ToolListTokens}: o200k_base, each tool as a chat request's tools field sends it)
 * @param toolListTokensPerEpisode that list's tokens times the episode's turns (a mean): what sending the list every
 *                         turn costs an episode
 * @param passK            pass^k for k = 1..trials (tau-bench)
 * @param failures         episodes per failure category, successes and errors included
 * @param delta            against the static condition on the same tasks (null for the static group itself)
 */
/* Nulls are written: every group has the same keys, null where a rate has no denominator. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record GroupMetrics(int episodes,
                           int errors,
                           int scored,
                           int successes,
                           @JsonProperty("success_rate") Double successRate,
                           @JsonProperty("success_ci") double[] successCi,
                           @JsonProperty("refusal_rate") Double refusalRate,
                           @JsonProperty("false_refusal_rate") Double falseRefusalRate,
                           @JsonProperty("attack_success_rate") Double attackSuccessRate,
                           @JsonProperty("tool_calls") long toolCalls,
                           @JsonProperty("tool_errors") long toolErrors,
                           @JsonProperty("tool_error_rate") Double toolErrorRate,
                           @JsonProperty("avg_turns") Double avgTurns,
                           @JsonProperty("avg_tokens") Double avgTokens,
                           @JsonProperty("tool_list_tokens") Double toolListTokens,
                           @JsonProperty("tool_list_tokens_per_episode") Double toolListTokensPerEpisode,
                           @JsonProperty("pass_k") Map<String, Double> passK,
                           Map<String, Integer> failures,
                           Delta delta) {

    /**
     * A shift's effect: success on the paired episodes (same agent, environment, task and trial)
     * with and without it, and the exact McNemar test of the difference.
     *
     * @param pairs       paired episodes, both scored
     * @param staticOnly  pairs that succeeded only without the shift
     * @param shiftedOnly pairs that succeeded only with it
     * @param relative    absolute / static rate (null when the static rate is 0)
     */
    public record Delta(int pairs,
                        @JsonProperty("static_rate") double staticRate,
                        @JsonProperty("shifted_rate") double shiftedRate,
                        double absolute,
                        Double relative,
                        @JsonProperty("static_only") int staticOnly,
                        @JsonProperty("shifted_only") int shiftedOnly,
                        @JsonProperty("p_value") double pValue) {}
}
