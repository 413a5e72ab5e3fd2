package dev.openagent.springai;

import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.FrameworkEpisodes;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.OracleChat;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.results.GoldFacts;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

import java.util.List;

import static dev.openagent.agent.framework.FrameworkAssertions.assertInfraError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real Spring AI ChatClient (its tool-calling advisor runs the loop) in the sandbox, against zero-latency fake models. */
class SpringAiAgentTest {
    private static final Environment POI = Environments.get("poi");
    private static final TaskRequest TASK = new TaskRequest(Split.TEST, 11, 2);

    static SpringAiAgent concierge(FakeModel model) {
        return SpringAiAgent.of("concierge", model, episode -> ChatClient.create(episode.chatModel()).prompt()
                .system("You are the concierge of a city guide.\n" + episode.systemPrompt())
                .user(episode.query())
                .toolCallbacks(episode.toolCallbacks())
                .call()
                .content());
    }

    private static ShiftStack stack(String shift) { return ShiftSpec.expand(shift).getFirst(); }

    private static List<String> offered(FakeModel model, int call) {
        var options = (ToolCallingChatOptions) model.prompts.get(call).getOptions();
        return options.getToolCallbacks().stream().map(ToolCallback::getToolDefinition).map(d -> d.name()).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tool.semantic-rename", "tool.schema-noise", "tool.distractors", "query.underspecified"})
    void aChatClientSolvesTasksThroughTheShiftedTools(String shift) {
        ShiftStack stack = stack(shift);
        for (TaskRequest r : new TaskPlan(Split.TEST, 8, 3, 0).requests()) {
            FakeModel model = FakeModel.oracle(new OracleChat(POI, stack, r));
            FrameworkEpisodes.Run run = FrameworkEpisodes.run(stack.apply(POI.create()), concierge(model), r);
            Trajectory t = run.trajectory();
            assertTrue(t.success(), () -> shift + ": " + t.outcome() + "\n" + run.transcript().render());
            List<String> shown = t.tools().stream().map(ToolSpec::name).toList();
            assertEquals(shown, offered(model, 0));
            AgentTranscript own = run.transcript();
            assertEquals(model.prompts.size(), own.exchanges().size());
            assertEquals(shown, own.exchanges().getFirst().tools());
            assertTrue(own.exchanges().getFirst().sent().getFirst().content().startsWith("You are the concierge of a city guide."));
            assertEquals(t.stats().turns(), own.exchanges().size());
            assertEquals(100L * own.exchanges().size(), t.stats().promptTokens());
        }
    }

    @Test
    void toolCallsOfOneReplyAreOneTurnEvenThoughSpringAiHidesTheirIds() {
        FakeModel model = new FakeModel(prompt -> prompt.getInstructions().size() <= 2
                ? AssistantMessage.builder().content("").toolCalls(List.of(
                        new AssistantMessage.ToolCall("a", "function", "list_districts", "{}"),
                        new AssistantMessage.ToolCall("b", "function", "get_reviews", "{}"),
                        new AssistantMessage.ToolCall("c", "function", "list_districts", "{}"))).build()
                : new AssistantMessage("done"));
        Trajectory t = FrameworkEpisodes.run(POI.create(), concierge(model), TASK).trajectory();
        List<Message> ms = t.messages();
        assertEquals(List.of("a", "b", "c"), ms.get(2).toolCalls().stream().map(Message.ToolCall::id).toList());
        assertEquals(List.of("a", "b", "c"), ms.subList(3, 6).stream().map(Message::toolCallId).toList());
        assertEquals("INVALID_ARGUMENTS", ms.get(4).error());
        assertEquals(2, t.stats().turns());
    }

    @Test
    void aToolNameSpringAiDoesNotKnowReachesTheSandboxAndIsAHallucinatedTool() {
        FakeModel model = new FakeModel(prompt -> AssistantMessage.builder().content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("x", "function", "book_the_best_table", "{}"))).build());
        FrameworkEpisodes.Run run = FrameworkEpisodes.run(POI.create(), concierge(model), TASK);
        assertEquals("UNKNOWN_TOOL", run.trajectory().messages().get(3).error());
        Env env = POI.create();
        env.reset(TASK);
        assertEquals(Failure.HALLUCINATED_TOOL, Taxonomy.classify(run.trajectory().outcome(), run.trajectory(), GoldFacts.of(env.task())));
        assertTrue(run.transcript().error().contains("book_the_best_table"), run.transcript().error());
    }

    @Test
    void aModelThatFailsMakesAnInfrastructureError() {
        FakeModel model = new FakeModel(prompt -> {
            throw new RuntimeException("HTTP 503 from the model endpoint");
        });
        assertInfraError(FrameworkEpisodes.run(POI.create(), concierge(model), TASK), "HTTP 503");
    }

    @Test
    void aBareChatModelIsAnAgentOfTheHarness() {
        for (String shift : List.of("none", "tool.semantic-rename", "query.underspecified")) {
            ShiftStack stack = stack(shift);
            for (TaskRequest r : new TaskPlan(Split.TEST, 6, 9, 0).requests()) {
                FakeModel model = FakeModel.oracle(new OracleChat(POI, stack, r));
                Trajectory t = Episodes.run(stack.apply(POI.create()), SpringAiAgent.chatModel("bare", model), r);
                assertTrue(t.success(), () -> shift + ": " + t.outcome());
                List<Message> lastSent = Messages.of(model.prompts.getLast().getInstructions());
                assertEquals(t.messages().subList(0, lastSent.size()), lastSent);
                assertEquals(t.tools().stream().map(ToolSpec::name).toList(), offered(model, 0));
            }
        }
    }
}
