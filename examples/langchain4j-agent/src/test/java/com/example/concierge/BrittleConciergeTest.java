package com.example.concierge;

import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** The brittle concierge's robustness test fails under renamed tools, passes without shifts, and says why. */
class BrittleConciergeTest {

    @Test
    void itsRobustnessTestFailsUnderRenamedToolsOnlyAndSaysWhy() {
        List<Event> finished = EngineTestKit.engine("junit-jupiter").selectors(selectClass(BrittleConciergeRobustness.class)).execute()
                .testEvents().finished().list();
        assertEquals(1, finished.size());
        TestExecutionResult result = finished.getFirst().getRequiredPayload(TestExecutionResult.class);
        assertEquals(TestExecutionResult.Status.FAILED, result.getStatus(), "the brittle concierge's robustness test must fail");
        String message = result.getThrowable().orElseThrow().getMessage();
        assertTrue(message.startsWith("agent 'brittle-concierge' on poi (20 tasks, seed 1): success below 0.70 on 1 of 2 condition(s)"), message);
        assertTrue(message.contains("\n  tool.semantic-rename: success "), message);
        assertFalse(message.contains("\n  none: success "), "without shifts it passes: " + message);
        assertTrue(message.contains("example failing episode (tool.semantic-rename, task "), message);
        // the agent's own transcript shows why: its model was offered no tool but ask_user
        assertTrue(message.contains("(tools offered to the model: ask_user)"), message);
    }
}
