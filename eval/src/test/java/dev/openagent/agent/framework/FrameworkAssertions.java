package dev.openagent.agent.framework;

import dev.openagent.sandbox.Outcome;
import dev.openagent.episode.Trajectory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checks the framework adapters' tests share (langchain4j, spring-ai: through eval's test-jar). */
public final class FrameworkAssertions {
    private FrameworkAssertions() {}

    /** The run's model call failed: the episode is an infrastructure error (not scored against the agent) naming the failure. */
    public static void assertInfraError(FrameworkEpisodes.Run run, String detailPart) {
        Trajectory t = run.trajectory();
        assertEquals(Outcome.End.INFRA_ERROR, t.outcome().end());
        assertTrue(t.outcome().detail().contains(detailPart), t.outcome().detail());
    }
}
