package dev.openagent.agent.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.FakeOpenAiServer;
import dev.openagent.json.Json;
import dev.openagent.run.RunControl;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.openagent.fake.FakeOpenAiServer.call;
import static dev.openagent.fake.FakeOpenAiServer.calls;
import static dev.openagent.fake.FakeOpenAiServer.ok;
import static dev.openagent.fake.FakeOpenAiServer.text;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class OpenAiAgentTest {
    private FakeOpenAiServer server;
    private final List<Duration> slept = new ArrayList<>();
    private final RunControl control = RunControl.unlimited();

    @AfterEach
    void stop() {
        if (server != null) server.close();
    }

    private ChatEndpoint endpoint(FakeOpenAiServer.Reply... replies) throws IOException {
        return endpoint(OpenAiConfig.of("http://127.0.0.1:1/v1", "m"), ResponseCache.NONE, replies);
    }

    /** Generous: a cold JVM on a busy machine must never time out by accident (the slow-reply test sets its own). */
    static final Duration TIMEOUT = Duration.ofSeconds(20);

    private ChatEndpoint endpoint(OpenAiConfig base, ResponseCache cache, FakeOpenAiServer.Reply... replies) throws IOException {
        server = new FakeOpenAiServer(replies);
        OpenAiConfig config = new OpenAiConfig(java.net.URI.create(server.baseUrl()), base.model(), base.apiKey(), base.protocol(),
                base.temperature(), base.maxTokens(), base.seed(), base.systemPrompt(), base.timeout().equals(OpenAiConfig.DEFAULT_TIMEOUT) ? TIMEOUT : base.timeout(),
                new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)), null);
        return new ChatEndpoint(config, cache, true, control, slept::add);
    }

    /** A config whose endpoint {@link #endpoint} replaces with the fake server's. */
    private static OpenAiConfig config(ToolProtocol protocol, Double temperature, Integer maxTokens, Long seed, Duration timeout) {
        return new OpenAiConfig(java.net.URI.create("http://127.0.0.1:1/v1"), "m", null, protocol, temperature, maxTokens, seed, null, timeout,
                null, null);
    }

    private static Trajectory episode(ChatEndpoint endpoint) {
        Env env = Environments.get("poi").create();
        return Episodes.run(env, new OpenAiAgent(endpoint), new TaskRequest(Split.TEST, 7, 2));
    }

    private JsonNode request(int i) {
        return Json.parse(server.bodies().get(i));
    }

    @Test
    void nativeToolCallsRoundTripAndFinalTextEndsTheEpisode() throws IOException {
        Trajectory t = episode(endpoint(
                ok(calls(call("c1", "get_place_details", "{\"place_id\": \"P0000\"}"))),
                ok(text("CANNOT COMPLETE: no such place"))));
        assertEquals(Outcome.End.REFUSED, t.outcome().end());
        assertEquals(2, server.requests());
        JsonNode first = request(0);
        assertEquals("m", first.path("model").asText());
        List<String> tools = new ArrayList<>();
        first.path("tools").forEach(x -> tools.add(x.path("function").path("name").asText()));
        assertTrue(tools.contains("search_places") && tools.contains(Protocol.ASK_USER), "tools are sent natively: " + tools);
        JsonNode second = request(1).path("messages");
        JsonNode assistant = second.get(2);
        assertEquals("c1", assistant.path("tool_calls").get(0).path("id").asText());
        assertEquals("get_place_details", assistant.path("tool_calls").get(0).path("function").path("name").asText());
        assertEquals("tool", second.get(3).path("role").asText());
        assertEquals("c1", second.get(3).path("tool_call_id").asText());
        assertFalse(second.get(3).has("error"), "our error annotation is not sent to the model");
        // The trajectory records exactly what the model was sent, and its final message.
        assertEquals(t.messages().size(), second.size() + 1);
        for (int i = 1; i < second.size(); i++) assertEquals(t.messages().get(i).role(), second.get(i).path("role").asText());
        assertEquals(2, t.stats().turns());
        assertEquals(22, t.stats().promptTokens());
        assertEquals(14, t.stats().completionTokens());
    }

    @Test
    void aLoneAskUserCallBecomesAQuestionToTheUser() throws IOException {
        Trajectory t = episode(endpoint(
                ok(calls(call("q1", "ask_user", "{\"question\": \"Which city do you mean?\"}"))),
                ok(text("Fine."))));
        Message ask = t.messages().get(2);
        assertEquals(Protocol.ASK_USER, ask.toolCalls().getFirst().function().name());
        assertEquals("tool", t.messages().get(3).role());
        JsonNode sent = request(1).path("messages");
        assertEquals(sent.get(2).path("tool_calls").get(0).path("id").asText(), sent.get(3).path("tool_call_id").asText());
    }

    @Test
    void malformedArgumentsAndUnknownToolsGoToTheEnvironmentNotToInfrastructure() throws IOException {
        Trajectory t = episode(endpoint(
                ok(calls(call("a", "get_place_details", "{\"place_id\": "))),
                ok(calls(call("b", "teleport", "{}"))),
                ok(calls(call("", "get_place_details", "not json"), call("", "get_place_details", "{}"))),
                ok(text("The answer is nothing."))));
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        Map<String, Integer> codes = t.stats().errorCodes();
        assertEquals(2, codes.get(ToolError.Code.MALFORMED_ARGUMENTS.name()));
        assertEquals(1, codes.get(ToolError.Code.UNKNOWN_TOOL.name()));
        assertEquals(1, codes.get(ToolError.Code.INVALID_ARGUMENTS.name()));
        // Calls without ids get unique ids, so results can be matched to them.
        List<Message.ToolCall> parallel = t.messages().get(6).toolCalls();
        assertEquals(2, parallel.size());
        assertFalse(parallel.get(0).id().equals(parallel.get(1).id()));
    }

    @Test
    void emptyChoicesHttp500AndDroppedConnectionsAreRetried() throws IOException {
        Trajectory t = episode(endpoint(
                ok("{\"choices\": []}"),
                FakeOpenAiServer.status(500),
                new FakeOpenAiServer.Drop(),
                ok(text("done")),
                ok("not json at all"),
                new FakeOpenAiServer.Truncated(),
                FakeOpenAiServer.status(503)));
        // The first turn took four attempts; the episode ended with the answer.
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        assertEquals(4, server.requests());
        assertEquals(3, slept.size());
    }

    @Test
    void http429HonoursRetryAfter() throws IOException {
        Trajectory t = episode(endpoint(
                new FakeOpenAiServer.Http(429, "{\"error\":\"slow down\"}", Map.of("Retry-After", "2"), 0),
                ok(text("done"))));
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        assertEquals(1, slept.size());
        assertTrue(slept.getFirst().compareTo(Duration.ofSeconds(2)) >= 0, "waited as the server asked: " + slept);
    }

    @Test
    void slowResponsesTimeOutAndAreRetried() throws IOException {
        OpenAiConfig c = config(ToolProtocol.NATIVE, null, null, null, Duration.ofSeconds(3));
        Trajectory t = episode(endpoint(c, ResponseCache.NONE, FakeOpenAiServer.slow(60_000, text("too late")), ok(text("in time"))));
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        assertTrue(t.messages().getLast().content().contains("in time"));
        assertEquals(1, slept.size());
    }

    @Test
    void exhaustedRetriesAreAnInfrastructureErrorNotAFailure() throws IOException {
        Trajectory t = episode(endpoint(FakeOpenAiServer.status(500), FakeOpenAiServer.status(502),
                new FakeOpenAiServer.Drop(), FakeOpenAiServer.status(503)));
        assertEquals(Outcome.End.INFRA_ERROR, t.outcome().end());
        assertTrue(t.outcome().detail().contains("4 attempt"), t.outcome().detail());
        assertEquals(4, server.requests());
        assertFalse(control.stopped(), "a flaky endpoint does not stop the run");
    }

    @Test
    void rejectedCredentialsStopTheRun() throws IOException {
        Trajectory t = episode(endpoint(FakeOpenAiServer.status(401)));
        assertEquals(Outcome.End.INFRA_ERROR, t.outcome().end());
        assertEquals(1, server.requests());
        assertTrue(control.stopped());
        assertTrue(control.stopReason().contains("401"), control.stopReason());
    }

    @Test
    void theRequestBudgetStopsTheRun() throws IOException {
        server = new FakeOpenAiServer(ok(calls(call("c", "list_districts", "{\"city\":\"x\"}"))), ok(text("done")));
        RunControl budget = new RunControl(1, 0);
        ChatEndpoint e = new ChatEndpoint(OpenAiConfig.of(server.baseUrl(), "m"), ResponseCache.NONE, false, budget, slept::add);
        Trajectory t = episode(e);
        assertEquals(Outcome.End.INFRA_ERROR, t.outcome().end());
        assertEquals(1, server.requests());
        assertTrue(budget.stopReason().contains("request budget"), budget.stopReason());
    }

    @Test
    void cachedResponsesReplayWithoutRequests() throws IOException {
        Map<String, String> store = new HashMap<>();
        ResponseCache cache = new ResponseCache() {
            @Override
            public Optional<String> get(String key) { return Optional.ofNullable(store.get(key)); }

            @Override
            public void put(String key, String model, String body) { store.put(key, body); }
        };
        ChatEndpoint e = endpoint(OpenAiConfig.of("http://127.0.0.1:1/v1", "m"), cache,
                ok(calls(call("c1", "list_districts", "{\"city\": \"Nowhere\"}"))), ok(text("done")));
        Trajectory first = episode(e);
        assertEquals(2, server.requests());
        Trajectory again = episode(e);
        assertEquals(2, server.requests(), "the second episode was answered from the cache");
        assertEquals(first.toJson(), again.toJson());
        // Another trial is another sample: not served from trial 0's cache entries.
        server.script(ok(text("another sample")));
        Episodes.run(Environments.get("poi").create(), new OpenAiAgent(e).forTrial(1), new TaskRequest(Split.TEST, 7, 2));
        assertEquals(3, server.requests());
    }

    @Test
    void samplingSettingsAreSentAndTheSeedVariesByTrial() throws IOException {
        OpenAiConfig c = config(ToolProtocol.NATIVE, 0.7, 256, 100L, null);
        ChatEndpoint e = endpoint(c, ResponseCache.NONE, ok(text("a")), ok(text("b")));
        Episodes.run(Environments.get("poi").create(), new OpenAiAgent(e).forTrial(3), new TaskRequest(Split.TEST, 7, 2));
        JsonNode body = request(0);
        assertEquals(0.7, body.path("temperature").asDouble());
        assertEquals(256, body.path("max_tokens").asInt());
        assertEquals(103, body.path("seed").asLong());
        assertFalse(body.path("stream").asBoolean());
    }

    @Test
    void textProtocolDescribesToolsInThePromptAndParsesCallsFromText() throws IOException {
        OpenAiConfig c = config(ToolProtocol.TEXT, null, null, null, null);
        Trajectory t = episode(endpoint(c, ResponseCache.NONE,
                ok(text("Let me look.\n<tool_call>\n{\"name\": \"list_districts\", \"arguments\": {\"city\": \"Nowhere\"}}\n</tool_call>")),
                ok(text("```json\n{\"name\": \"list_districts\", \"arguments\": {\"city\": \"Elsewhere\"}}\n```")),
                ok(text("There are none."))));
        assertEquals(Outcome.End.ANSWERED, t.outcome().end());
        assertEquals(2, t.stats().toolCalls());
        JsonNode first = request(0);
        assertFalse(first.has("tools"), "no native tools in the text protocol");
        String system = first.path("messages").get(0).path("content").asText();
        assertTrue(system.contains("<tools>") && system.contains("\"name\":\"search_places\""), system);
        JsonNode third = request(2).path("messages");
        assertEquals("assistant", third.get(2).path("role").asText());
        assertTrue(third.get(2).path("content").asText().contains("<tool_call>"));
        assertEquals("user", third.get(3).path("role").asText());
        assertTrue(third.get(3).path("content").asText().startsWith("<tool_response name=\"list_districts\">"));
        for (JsonNode m : third) assertFalse(m.path("role").asText().equals("tool"), "no tool role in the text protocol");
    }

    @Test
    void systemPromptTemplateWrapsTheEnvironmentsPrompt() throws IOException {
        OpenAiConfig c = OpenAiConfig.of("http://127.0.0.1:1/v1", "m").withSystemPrompt("You are careful.\n{{system}}");
        episode(endpoint(c, ResponseCache.NONE, ok(text("x"))));
        String system = request(0).path("messages").get(0).path("content").asText();
        assertTrue(system.startsWith("You are careful.\nYou are an assistant"), system);
    }

    @Test
    void apiKeyIsSentAsBearerTokenAndNeverPrinted() {
        OpenAiConfig c = new OpenAiConfig(java.net.URI.create("http://127.0.0.1:1/v1"), "m", "sk-secret", null, null, null, null, null, null, null, null);
        assertFalse(c.toString().contains("sk-secret"));
        assertFalse(c.identity().toString().contains("sk-secret"));
        assertNull(new OpenAiConfig(java.net.URI.create("http://127.0.0.1:1/v1"), "m", " ", null, null, null, null, null, null, null, null).apiKey());
    }
}
