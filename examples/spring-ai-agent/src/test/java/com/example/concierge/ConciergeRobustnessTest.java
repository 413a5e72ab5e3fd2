package com.example.concierge;

import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.junit.AgentRobustness;
import dev.openagent.junit.AgentUnderTest;
import dev.openagent.junit.RobustnessResult;
import dev.openagent.springai.SpringAiAgent;

import static dev.openagent.junit.RobustnessAssert.assertThat;

/**
 * The concierge, unchanged, on the sandbox's tools: without shifts and under three shifts of its
 * tools and their results. The report lands in target/openagent/ConciergeRobustnessTest/.
 */
class ConciergeRobustnessTest {

    @AgentUnderTest
    static FrameworkAgent concierge() {
        return SpringAiAgent.of("concierge", TestModel.fromEnvironment(), episode ->
                new Concierge(episode.chatModel(), episode.toolCallbacks(), episode.systemPrompt()).chat(episode.query()));
    }

    @AgentRobustness(env = "poi", shift = "tool.distractors;obs.missing-values;tool.schema-noise", tasks = 30, seed = 1)
    void holdsUpUnderToolAndObservationShifts(RobustnessResult result) {
        assertThat(result)
                .onShift("none").successAtLeast(0.8)
                .onShifts("tool.distractors", "obs.missing-values").dropAtMost(0.15)
                .onShift("tool.schema-noise").successAtLeast(0.2)
                .onEveryShift().failuresAtMost("agent_error", 0.0);
    }
}
