package dev.openagent.server.model;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.registry.Environments;
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
    /**
     * The same agent, in-process and served through the endpoint to the evaluation harness's
     * {@code openai} agent, makes the same episodes: identical outcomes, turns and tool errors per
     * task, hence the same success rate. (The random baseline stands in for a trained policy here;
     * any agent that acts on what it is shown is served the same way.)
     */
    @Test
    void aServedAgentBehavesExactlyAsInProcess() throws Exception {
        Agent random = new RandomAgent(7);
        List<TaskRequest> tasks = new TaskPlan(Split.TEST, 60, 3, 0).requests();
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-7", random), ModelServer.Config.loopback());
             ChatEndpoint endpoint = new ChatEndpoint(OpenAiConfig.of(server.baseUrl(), "random-7"))) {
            Agent served = new OpenAiAgent(endpoint);
            Env env = Environments.get("poi").create();
            List<Trajectory> local = new java.util.ArrayList<>(), remote = new java.util.ArrayList<>();
            for (TaskRequest t : tasks) {
                Trajectory l = Episodes.run(env, random, t), r = Episodes.run(env, served, t);
                assertEquals(l.outcome(), r.outcome(), t.toString());
                assertEquals(l.stats().turns(), r.stats().turns(), t.toString());
                assertEquals(l.stats().toolErrors(), r.stats().toolErrors(), t.toString());
                local.add(l);
                remote.add(r);
            }
            assertEquals(Summary.of(local).successRate(), Summary.of(remote).successRate());
            int turns = local.stream().mapToInt(t -> t.stats().turns()).sum();
            assertTrue(turns > tasks.size() * 2, "episodes long enough to exercise the replay: " + turns + " turns");
        }
    }

    /**
     * An agent that reads only text, in a function-call and a text-command environment: through the
     * endpoint it sees exactly the texts it sees in-process, turn by turn.
     */
    @Test
    void aTextReadingAgentSeesTheSameTextsThroughTheEndpoint() throws Exception {
        Agent reader = new TextReaderAgent();
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("reader", reader), ModelServer.Config.loopback());
             ChatEndpoint endpoint = new ChatEndpoint(OpenAiConfig.of(server.baseUrl(), "reader"))) {
            Agent served = new OpenAiAgent(endpoint);
            for (String envId : List.of("poi", "household", "retail")) {
                Env env = Environments.get(envId).create();
                for (TaskRequest t : new TaskPlan(Split.TEST, 12, 9, 0).requests()) {
                    Trajectory l = Episodes.run(env, reader, t), r = Episodes.run(env, served, t);
                    assertEquals(observed(l), observed(r), envId + " " + t);
                    assertEquals(l.outcome(), r.outcome(), envId + " " + t);
                    assertEquals(l.stats().turns(), r.stats().turns(), envId + " " + t);
                }
            }
        }
    }

    /** The texts an episode showed the agent after its request, in order. */
    private static List<String> observed(Trajectory t) {
        return t.messages().stream().skip(2).filter(m -> m.role().equals("tool") || m.role().equals("user"))
                .map(dev.openagent.episode.Message::content).toList();
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
            bad.put("{\"messages\":[{\"role\":\"assistant\",\"content\":\"hi\"}]}", 400);   // not a conversation: no request
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"user\",\"content\":\"y\"}]}", 400);
            // Out of the ranges OpenAI's API documents: refused there, so here too.
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":-5}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_completion_tokens\":0}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"temperature\":3}", 400);
            bad.put("{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"top_p\":-0.1}", 400);
            for (var e : bad.entrySet()) {
                Response b = http.post("/chat/completions", e.getKey());
                assertEquals(e.getValue(), b.status(), e.getKey() + " -> " + b.body());
                assertFalse(b.errorMessage().isBlank(), e.getKey());
            }
            // Invalid UTF-8 is answered as by every server: 400 malformed_json naming the byte.
            byte[] notUtf8 = {'{', '"', 'm', (byte) 0xc3, '"', ':', '1', '}'};
            Response utf8 = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(http.base() + "/chat/completions"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(notUtf8)).build());
            assertEquals(400, utf8.status());
            assertEquals("malformed_json", utf8.errorCode());
            assertEquals("the request body is not valid UTF-8 (at byte 3)", utf8.errorMessage());
            assertEquals("max_tokens must be at least 1, not -5",
                    http.post("/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":-5}").errorMessage());
            assertEquals(405, http.get("/chat/completions").status());
            assertEquals(404, http.get("/completions").status());
            assertEquals(200, http.post("/chat/completions", ok).status(), "still serving");
        }
    }

    /**
     * --max-concurrent counts requests being answered, not requests whose bodies are still arriving: clients that
     * send their headers and one byte lock nobody out, while requests being answered still fill the slots.
     */
    @Test
    void slotsAreTakenOnlyOnceARequestIsRead() throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(2);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        ChatPolicy blocking = new ChatPolicy() {
            @Override
            public String id() { return "slow"; }

            @Override
            public dev.openagent.episode.Message respond(List<dev.openagent.episode.Message> messages, List<dev.openagent.sandbox.ToolSpec> tools) {
                try {
                    if (messages.getLast().content().equals("wait")) {
                        entered.countDown();
                        release.await(30, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return dev.openagent.episode.Message.assistant("done");
            }
        };
        ModelServer.Config d = ModelServer.Config.loopback();
        String quick = "{\"messages\":[{\"role\":\"user\",\"content\":\"now\"}]}";
        List<java.net.Socket> stalled = new java.util.ArrayList<>();
        try (ModelServer server = ModelServer.start(blocking, new ModelServer.Config(d.host(), 0, d.auth(), 2, d.maxBodyBytes()));
             TestHttp http = new TestHttp(server.baseUrl())) {
            for (int i = 0; i < 4; i++) {
                java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.port());
                stalled.add(s);
                s.getOutputStream().write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 500\r\n\r\n{").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                s.getOutputStream().flush();
            }
            Response ok = http.post("/chat/completions", quick);
            assertEquals(200, ok.status(), "four stalled uploads hold none of the two slots: " + ok.body());
            // Two requests being answered fill both slots: a third is told to retry.
            var pool = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
            String waiting = "{\"messages\":[{\"role\":\"user\",\"content\":\"wait\"}]}";
            var first = pool.submit(() -> http.post("/chat/completions", waiting));
            var second = pool.submit(() -> http.post("/chat/completions", waiting));
            assertTrue(entered.await(30, TimeUnit.SECONDS), "both requests are being answered");
            Response refused = http.post("/chat/completions", quick);
            release.countDown();
            assertEquals(200, first.get(30, TimeUnit.SECONDS).status());
            assertEquals(200, second.get(30, TimeUnit.SECONDS).status());
            pool.close();
            assertEquals(429, refused.status(), "the cap still holds: " + refused.body());
            assertEquals("too_many_requests", refused.errorCode());
        } finally {
            for (java.net.Socket s : stalled) s.close();
        }
    }
}
