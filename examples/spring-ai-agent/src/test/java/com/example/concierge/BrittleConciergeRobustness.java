package com.example.concierge;

import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.junit.AgentRobustness;
import dev.openagent.junit.AgentUnderTest;
import dev.openagent.junit.RobustnessResult;
import dev.openagent.springai.SpringAiAgent;
import org.junit.jupiter.api.Tag;

import static dev.openagent.junit.RobustnessAssert.assertThat;

/**
 * The brittle concierge's robustness test. It fails, as it should: the concierge passes without
 * shifts and loses its tools when they are renamed. The build leaves it out (its tag is excluded in
 * pom.xml); {@link BrittleConciergeTest} runs it and checks that it fails, and how. Run it alone to
 * see the failure: {@code mvn test -Dtest=BrittleConciergeRobustness -Dexcluded.groups=none}.
 */
@Tag("demonstrates-a-failure")
class BrittleConciergeRobustness {

    @AgentUnderTest
    static FrameworkAgent brittleConcierge() {
        return SpringAiAgent.of("brittle-concierge", TestModel.fromEnvironment(), episode ->
                BrittleConcierge.create(episode.chatModel(), episode.toolCallbacks(), episode.systemPrompt()).chat(episode.query()));
    }

    @AgentRobustness(env = "poi", shift = "tool.semantic-rename", tasks = 20, seed = 1)
    void survivesRenamedTools(RobustnessResult result) {
        assertThat(result).successAtLeast(0.7);
    }
}
