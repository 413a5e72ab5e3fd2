package dev.openagent.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the agent an {@link AgentRobustness} test runs: a method without parameters or a field, static
 * or not, of type {@link dev.openagent.episode.Agent} (for example a bare model from
 * {@code LangChain4jAgent.chatModel}) or {@link dev.openagent.agent.framework.FrameworkAgent} (a
 * LangChain4j or Spring AI agent). It is read once per test method.
 */
@Target({ElementType.METHOD, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface AgentUnderTest {
    /** The name {@link AgentRobustness#agent} refers to; the member's name by default. */
    String value() default "";
}
