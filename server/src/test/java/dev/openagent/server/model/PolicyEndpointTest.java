package dev.openagent.server.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyAgent;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Vocabulary;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.server.TestHttp;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A built-in policy checkpoint served by {@code serve model} to the harness's {@code openai} agent
 * makes the same episodes as the policy in-process ({@code --agent policy:DIR}): the same messages,
 * turn by turn. The policy here is untrained (fast, long episodes of calls and errors); the CLI's {@code ServeModelEvalTest}
 * compares success episode by episode through {@code openagent eval} with one that solves tasks.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PolicyEndpointTest {
    @TempDir
    static Path dir;

    static Path checkpoint;

    /**
     * A tiny policy with random weights (no training: fast): it calls tools with arguments copied from
     * the request and gets results and errors back, turn after turn, rarely to a success.
     */
    @BeforeAll
    static void create() {
        checkpoint = dir.resolve("tiny-random");
        try (Policy p = Policy.create(PolicyConfig.tiny(), Vocabulary.open(), 11)) {
            Checkpoint.save(p, checkpoint, null);
        }
    }

    static PolicyAgent local;

    @BeforeAll
    static void loadLocal() {
        local = PolicyAgent.load(checkpoint);
    }

    @AfterAll
    static void close() {
        if (local != null) local.policy().close();
    }

    @Test
    void theServedPolicyMakesTheSameEpisodesAsInProcess() throws Exception {
        try (PolicyChatPolicy chat = PolicyChatPolicy.load(checkpoint, "tiny-random");
             ModelServer server = ModelServer.start(chat, ModelServer.Config.loopback());
             ChatEndpoint endpoint = new ChatEndpoint(OpenAiConfig.of(server.baseUrl(), "tiny-random"))) {
            OpenAiAgent served = new OpenAiAgent(endpoint);
            int turns = 0, errors = 0;
            // Static tasks, requests that lack a detail (the user's replies, if the policy asks, come
            // back as ask_user tool messages), and transient tool errors (read back from their text).
            for (String shift : List.of("none", "query.underspecified", "obs.runtime-error")) {
                ShiftStack stack = shift.equals("none") ? ShiftStack.NONE : ShiftSpec.parseStack(shift);
                Env env = stack.apply(Environments.get("poi").create());
                for (TaskRequest t : new TaskPlan(Split.TEST, 3, 5, 0).requests()) {
                    Trajectory l = Episodes.run(env, local, t), r = Episodes.run(env, served, t);
                    String where = shift + " " + t;
                    assertEquals(l.messages(), r.messages(), where);
                    assertEquals(l.outcome(), r.outcome(), where);
                    turns += r.stats().turns();
                    errors += r.stats().toolErrors();
                }
            }
            assertTrue(turns > 2 * 9, "episodes of several turns: " + turns);
            assertTrue(errors > 0, "error observations went through the endpoint");
        }
    }

    @Test
    void modelsListsThePolicyAndBadConversationsAre400() throws Exception {
        try (PolicyChatPolicy chat = PolicyChatPolicy.load(checkpoint, "tiny-random");
             ModelServer server = ModelServer.start(chat, ModelServer.Config.loopback());
             TestHttp http = new TestHttp(server.baseUrl())) {
            JsonNode models = http.get("/models").body();
            assertEquals("tiny-random", models.get("data").get(0).get("id").asText());

            String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"find_place\",\"description\":\"Find a place by name.\","
                    + "\"parameters\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"}},\"required\":[\"name\"]}}}]";
            TestHttp.Response ok = http.post("/chat/completions", "{\"model\":\"tiny-random\",\"messages\":["
                    + "{\"role\":\"user\",\"content\":\"Find the place called Blue Fig.\"}],\"tools\":" + tools + "}");
            assertEquals(200, ok.status(), ok.body().toString());
            JsonNode message = ok.body().get("choices").get(0).get("message");
            assertTrue(message.has("tool_calls") || message.get("content").isTextual(), message.toString());

            TestHttp.Response toolFirst = http.post("/chat/completions", "{\"messages\":[{\"role\":\"assistant\",\"content\":\"hi\"}],\"tools\":" + tools + "}");
            assertEquals(400, toolFirst.status());
            assertTrue(toolFirst.errorMessage().contains("user's request"), toolFirst.errorMessage());
            TestHttp.Response orphan = http.post("/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"},"
                    + "{\"role\":\"user\",\"content\":\"y\"}],\"tools\":" + tools + "}");
            assertEquals(400, orphan.status());
            assertEquals(200, http.post("/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"Find Blue Fig.\"}],\"tools\":"
                    + tools + "}").status(), "still serving");
        }
    }
}
