package dev.openagent.server.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.envs.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.metrics.Summary;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.server.TestHttp;
import dev.openagent.server.TestHttp.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ModelServerTest {
    /** The same agent, in-process and served through the endpoint, makes the same episodes. */
    @Test
    void aServedAgentBehavesExactlyAsInProcess() throws Exception {
        Agent random = new RandomAgent(7);
        List<TaskRequest> tasks = new TaskPlan(Split.TEST, 60, 3, 0).requests();
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-7", random), ModelServer.Config.loopback());
             TestHttp http = new TestHttp(server.baseUrl())) {
            Agent served = new ChatClientAgent(http, "random-7");
            Env env = Environments.get("poi").create();
            int turns = 0;
            for (TaskRequest t : tasks) {
                Trajectory local = Episodes.run(env, random, t);
                Trajectory remote = Episodes.run(env, served, t);
                assertEquals(local.outcome(), remote.outcome(), t.toString());
                assertEquals(local.stats().turns(), remote.stats().turns(), t.toString());
                assertEquals(local.stats().toolErrors(), remote.stats().toolErrors(), t.toString());
                turns += local.stats().turns();
            }
            assertTrue(turns > tasks.size() * 2, "episodes long enough to exercise the replay: " + turns + " turns");
        }
    }

    @Test
    void successRatesAgreeThroughTheEndpoint() throws Exception {
        // The done-when of the endpoint, with the baseline until the built-in policy is available.
        Agent random = new RandomAgent(11);
        List<TaskRequest> tasks = new TaskPlan(Split.TEST, 40, 5, 1).requests();
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-11", random), ModelServer.Config.loopback());
             TestHttp http = new TestHttp(server.baseUrl())) {
            Env env = Environments.get("poi").create();
            Summary local = Summary.of(tasks.stream().map(t -> Episodes.run(env, random, t)).toList());
            Summary remote = Summary.of(tasks.stream().map(t -> Episodes.run(env, new ChatClientAgent(http, "random-11"), t)).toList());
            assertEquals(local.successRate(), remote.successRate());
            assertEquals(local.successes(), remote.successes());
        }
    }

    @Test
    void openAiShapesAndBadInput() throws Exception {
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-1", new RandomAgent(1)), ModelServer.Config.loopback());
             TestHttp http = new TestHttp(server.baseUrl())) {
            JsonNode models = http.get("/models").body();
            assertEquals("list", models.get("object").asText());
            assertEquals("random-1", models.get("data").get(0).get("id").asText());
            assertEquals(200, http.get("/models/random-1").status());
            assertEquals("model_not_found", http.get("/models/gpt-9").errorCode());

            String tools = "[{\"type\":\"function\",\"function\":{\"name\":\"find\",\"description\":\"Find.\",\"parameters\":"
                    + "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}}}]";
            String ok = "{\"model\":\"random-1\",\"temperature\":0,\"messages\":[{\"role\":\"system\",\"content\":\"s\"},"
                    + "{\"role\":\"user\",\"content\":\"Find Blue Fig\"}],\"tools\":" + tools + "}";
            Response r = http.post("/chat/completions", ok);
            assertEquals(200, r.status(), r.body().toString());
            JsonNode choice = r.body().get("choices").get(0);
            assertEquals("chat.completion", r.body().get("object").asText());
            assertEquals("assistant", choice.get("message").get("role").asText());
            String finish = choice.get("finish_reason").asText();
            assertTrue(finish.equals("tool_calls") ? choice.get("message").get("tool_calls").isArray() : finish.equals("stop"), r.body().toString());
            assertTrue(r.body().get("usage").get("total_tokens").asLong() > 0);

            Map<String, Integer> bad = new java.util.LinkedHashMap<>();
            bad.put("{bad", 400);
            bad.put("{\"messages\":\"hi\"}", 400);
            bad.put("{\"messages\":[]}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":5}]}", 400);
            bad.put("{\"messages\":[{\"role\":\"wizard\",\"content\":\"x\"}]}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":{}}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":7}}]}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":true}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"model\":\"other\"}", 404);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"frobnicate\":1}", 400);
            bad.put("{\"messages\":[{\"role\":\"tool\",\"content\":\"x\"}]}", 400);
            for (var e : bad.entrySet()) {
                Response b = http.post("/chat/completions", e.getKey());
                assertEquals(e.getValue(), b.status(), e.getKey() + " -> " + b.body());
                assertFalse(b.errorMessage().isBlank(), e.getKey());
            }
            assertEquals(405, http.get("/chat/completions").status());
            assertEquals(404, http.get("/completions").status());
            assertEquals(200, http.post("/chat/completions", ok).status(), "still serving");
        }
    }
}
