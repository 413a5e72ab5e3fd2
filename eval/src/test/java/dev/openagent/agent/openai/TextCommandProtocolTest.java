package dev.openagent.agent.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.FakeOpenAiServer;
import dev.openagent.fake.ScriptedModel;
import dev.openagent.json.Json;
import dev.openagent.run.RunControl;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import static dev.openagent.fake.FakeOpenAiServer.ok;
import static dev.openagent.fake.FakeOpenAiServer.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The OpenAI agent and text-command environments agree on the protocol the system prompt states:
 * a plain message is a command, {@code ask <question>} asks the user, {@code FINAL ANSWER: ...} answers,
 * {@code CANNOT COMPLETE: ...} refuses; and the conversation sent back to the model is written that way.
 */
@Timeout(120)
class TextCommandProtocolTest {
    private static ChatEndpoint endpoint(String baseUrl) {
        OpenAiConfig config = OpenAiConfig.of(baseUrl, "m").withRetry(new RetryPolicy(2, Duration.ofMillis(1), Duration.ofMillis(2)));
        return new ChatEndpoint(config, ResponseCache.NONE, false, RunControl.unlimited(), d -> { });
    }

    @Test
    void commandsQuestionsAndTheFinalAnswerTravelAsText() throws IOException {
        try (FakeOpenAiServer server = new FakeOpenAiServer(ok(text("help")), ok(text("ask which one do you mean?")),
                ok(text("FINAL ANSWER: nothing to do")))) {
            Env env = Environments.get("household").create();
            Trajectory t = Episodes.run(env, new OpenAiAgent(endpoint(server.baseUrl())), new TaskRequest(Split.TEST, 7, 2));
            assertEquals(Outcome.End.ANSWERED, t.outcome().end());
            JsonNode first = Json.parse(server.bodies().getFirst());
            assertFalse(first.has("tools"), "no tools for a text-command environment");
            String system = first.path("messages").get(0).path("content").asText();
            assertTrue(system.contains("'" + Protocol.FINAL_ANSWER + "'") && system.contains("'" + Protocol.REFUSAL_MARKER + "'")
                    && system.contains("'ask <your question>'"), system);
            JsonNode third = Json.parse(server.bodies().get(2)).path("messages");
            assertEquals("help", third.get(2).path("content").asText());
            assertTrue(third.get(3).path("content").asText().startsWith("Valid commands"), "the help text comes back as the user turn");
            assertEquals("ask which one do you mean?", third.get(4).path("content").asText());
            assertEquals("user", third.get(5).path("role").asText());
            assertEquals(Protocol.FINAL_ANSWER + " nothing to do", t.messages().getLast().content());
        }
    }

    /** A model that writes exactly what the oracle does, through the whole harness, solves every text task and refuses every impossible one. */
    @Test
    void aModelFollowingTheProtocolSolvesHouseholdTasksUnderShifts() throws IOException {
        TaskPlan plan = new TaskPlan(Split.TEST, 12, 5L, 0);
        String spec = "query.underspecified;task.unsolvable;query.paraphrase";   // the scripted model tells episodes apart by their query
        try (ScriptedModel model = new ScriptedModel(List.of("household"), spec, plan, 0, true)) {
            OpenAiAgent agent = new OpenAiAgent(endpoint(model.baseUrl()));
            for (ShiftStack stack : ShiftSpec.expand(spec)) {
                for (TaskRequest r : plan.requests()) {
                    Trajectory t = Episodes.run(stack.apply(Environments.get("household").create()), agent, r);
                    assertTrue(t.success(), stack.label() + " " + t.taskId() + ": " + t.outcome());
                }
            }
        }
    }
}
