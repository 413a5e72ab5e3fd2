package dev.openagent.junit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A robustness test: runs the class's {@link AgentUnderTest} on {@code tasks} tasks of
 * {@code env}, without shifts and under each shift of {@code shift}, scores every episode, writes
 * the HTML report under {@code target/openagent/}, prints a per-shift table, and hands the test
 * method a {@link RobustnessResult} to assert on with {@link RobustnessAssert#assertThat}:
 *
 * <pre>{@code
 * @AgentRobustness(env = "poi", shift = "tier:perception", tasks = 50, seed = 1)
 * void robustToPerceptionShifts(RobustnessResult result) {
 *     assertThat(result).successAtLeast(0.8).onShift("tool.semantic-rename").dropAtMost(0.1);
 * }
 * }</pre>
 *
 * A misconfigured annotation (unknown environment or shift, {@code tasks <= 0}, no agent) fails the
 * test with a one-line reason before any episode runs.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Test
@ExtendWith(AgentRobustnessExtension.class)
public @interface AgentRobustness {
    /** The environment id ({@code openagent envs}). */
    String env() default "poi";

    /** A shift spec as {@code --shift} takes it: {@code none}, one shift, {@code a+b}, {@code tier:T}, {@code all}, or several joined by ';'. The unshifted condition always runs too. */
    String shift() default "none";

    /** Tasks per condition. */
    int tasks() default 20;

    /** The run seed: the same seed draws the same tasks. */
    long seed() default 1;

    /** {@code test} (default) or {@code train}. */
    String split() default "test";

    /** A difficulty level, or 0 for the mix the seed draws. */
    int difficulty() default 0;

    /** Episodes per task and condition (pass^k needs more than one). */
    int trials() default 1;

    /** Episodes run at once; the agent must then be safe to call from several threads. */
    int concurrency() default 1;

    /** Which {@link AgentUnderTest} to run when the class has several (its name). */
    String agent() default "";
}
