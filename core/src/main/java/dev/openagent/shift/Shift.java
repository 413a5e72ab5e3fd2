package dev.openagent.shift;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvironmentInfo;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A catalog entry: one kind of open-world shift. {@link #wrap} puts it around an environment as
 * an {@link dev.openagent.sandbox.EnvWrapper} that records itself in the spec stack.
 */
public interface Shift {
    /** The public id, for example {@code tool.semantic-rename}. */
    String id();

    Tier tier();

    Dimension dimension();

    String description();

    /** Accepted parameters; every shift with a magnitude has {@code severity} (1..3). */
    List<ShiftParam> params();

    /** Empty when the shift applies to the environment, else the reason it does not. */
    default Optional<String> notApplicable(EnvironmentInfo env) { return Optional.empty(); }

    /**
     * Where the shift sits in a composed stack, innermost first. Stacks are put in this canonical
     * order whatever order they were written in, so {@code a+b} and {@code b+a} are one condition and
     * a shift that injects calls by their base names always sits inside the shifts that rename,
     * redirect or reformat them: task and query shifts, then call protocol, observation content,
     * tool names, observation format.
     */
    default int order() { return 100; }

    /**
     * The environment the layers above this one act on: the same one, except for a shift that swaps
     * in another environment ({@code domain.transfer}), whose target then decides what else applies.
     */
    default EnvironmentInfo environmentAfter(EnvironmentInfo env, Map<String, String> params) { return env; }

    /**
     * Wraps the environment. Parameters are already validated against {@link #params()} and
     * completed with defaults.
     */
    Env wrap(Env inner, Map<String, String> params);
}
