package dev.openagent.junit;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolSpec;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** Runs a fixture test class (a nested class: the build's own test run skips them) and returns how its one test ended. */
final class Fixtures {
    private Fixtures() {}

    static TestExecutionResult run(Class<?> fixture) {
        EngineExecutionResults results = EngineTestKit.engine("junit-jupiter").selectors(selectClass(fixture)).execute();
        List<Event> finished = results.testEvents().finished().list();
        if (finished.size() != 1) throw new AssertionError(fixture.getSimpleName() + " ran " + finished.size() + " tests, not 1");
        return finished.getFirst().getRequiredPayload(TestExecutionResult.class);
    }

    /** The failure's message, or an AssertionError when the fixture passed. */
    static String failure(Class<?> fixture) {
        TestExecutionResult r = run(fixture);
        if (r.getStatus() == TestExecutionResult.Status.SUCCESSFUL) throw new AssertionError(fixture.getSimpleName() + " passed but should have failed");
        return r.getThrowable().orElseThrow().getMessage();
    }

    /** The fixture fails, and its message contains {@code part}. */
    static void assertFailureSays(Class<?> fixture, String part) {
        String m = failure(fixture);
        if (!m.contains(part)) throw new AssertionError(fixture.getSimpleName() + "'s failure should contain '" + part + "' but was: " + m);
    }

    static Throwable thrown(Class<?> fixture) {
        return run(fixture).getThrowable().orElseThrow(() -> new AssertionError(fixture.getSimpleName() + " passed but should have failed"));
    }

    /**
     * The oracle, except that it relies on a tool it knows by name: when no tool is called
     * {@code search_places} it gives up with a guess. It passes without shifts and breaks under renames.
     */
    static Agent brittleOracle() {
        Agent oracle = new OracleAgent();
        return new Agent() {
            @Override
            public String name() { return "brittle"; }

            @Override
            public AgentSession begin(Start start, Env env) {
                if (start.tools().stream().map(ToolSpec::name).noneMatch("search_places"::equals)) return last -> new Action.Answer("I could not find it.");
                return oracle.begin(start, env);
            }
        };
    }

    /** What a framework agent does in one episode. */
    interface Body {
        String run(FrameworkEpisode e) throws Exception;
    }

    /** A framework agent of this name. */
    static FrameworkAgent frameworkAgent(String name, Body body) {
        return new FrameworkAgent() {
            public String name() { return name; }

            public String run(FrameworkEpisode e) throws Exception { return body.run(e); }
        };
    }
}
