package dev.openagent.metrics;

import java.util.Locale;

/**
 * The failure taxonomy: one category per episode, assigned by {@link Taxonomy#classify} from the
 * trajectory and the task's reference solution alone (no model, no judgement), by taking the
 * first rule below that holds. The rule texts are what docs/evaluation.md and the reports show.
 */
public enum Failure {
    SUCCESS("the episode succeeded"),
    INFRA_ERROR("the model endpoint or the harness failed; not scored, run again on resume"),
    UNSCORED("a session with no task to judge it by (a proxy session without --env and --task): recorded, not scored"),
    AGENT_ERROR("the agent's own code threw (its model endpoint did not fail), ending the episode without its answer; "
            + "a throw after a call of a tool that does not exist counts as hallucinated_tool"),
    FALSE_REFUSAL("refused a task that was solvable"),
    FORCED_COMPLETION("answered a task that has no valid completion instead of refusing it"),
    LOOP("hit the step limit having made one identical call (same tool, same arguments) at least 3 times"),
    STEP_LIMIT("hit the step limit without such a repeated call"),
    HALLUCINATED_TOOL("called a tool that is not in its tool list (an UNKNOWN_TOOL error) at least once"),
    INVALID_ARGUMENTS("a call with malformed or schema-violating arguments (MALFORMED_ARGUMENTS, INVALID_ARGUMENTS) "
            + "was never followed by a successful call of the same tool"),
    IGNORED_ERROR("gave the final answer right after a turn whose tool results included an error, without addressing it"),
    PREMATURE_ANSWER("answered after fewer successful tool calls than the reference solution makes"),
    WRONG_TOOL("did not successfully call every tool of the reference solution that it was shown under the same name"),
    WRONG_ANSWER("none of the above: the calls went through but the final answer (or the world state) is wrong");

    private final String rule;

    Failure(String rule) { this.rule = rule; }

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public String rule() { return rule; }
}
