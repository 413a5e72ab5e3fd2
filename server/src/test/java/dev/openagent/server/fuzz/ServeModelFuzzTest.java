package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.json.Json;
import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ModelServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Map;

/**
 * The fuzzing pass over {@code serve model}'s OpenAI-compatible API (Jazzer, coverage-guided, a bounded number of
 * executions): each input is one chat completion request grown from valid ones (every option, tool calls and their
 * results, content parts) or the fuzzer's bytes, posted to {@code /v1/chat/completions}; now and then another route or
 * method. Every answer is below 500 and JSON, a 4xx one a problem with a one-line message, none with a library's or
 * Java's text, and the server logs no stack trace. The server binds 127.0.0.1 and is stopped after the pass.
 */
class ServeModelFuzzTest {
    private static final List<JsonNode> REQUESTS = List.of(
            Json.parse("{\"model\":\"random-1\",\"messages\":[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"user\",\"content\":\"X\"}],"
                    + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"find\",\"description\":\"F\",\"parameters\":{\"type\":\"object\","
                    + "\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}}}],\"temperature\":0.5,\"max_tokens\":10,"
                    + "\"tool_choice\":\"auto\",\"stream\":false,\"n\":1,\"top_p\":1,\"presence_penalty\":0}"),
            Json.parse("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"X\"}]},{\"role\":\"assistant\",\"content\":null,"
                    + "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":\"{\\\"q\\\":\\\"X\\\"}\"}}]},"
                    + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Y\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"find\"}}]}"));
    private static final List<String> PATHS = List.of("/chat/completions", "/models", "/models/random-1", "/health", "/", "/completions");

    private static ServerLog log;
    private static ModelServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        log = ServerLog.capture();
        server = ModelServer.start(new AgentChatPolicy("random-1", new RandomAgent(1)), ModelServer.Config.loopback());
        client = Exchange.client();
    }

    @AfterAll
    static void stop() throws Exception {
        log.closeAfter(client, server);
    }

    @FuzzTest(maxExecutions = 1500, maxDuration = "30s")
    void everyRequestGetsAJsonAnswer(FuzzedDataProvider data) {
        Mutator f = new Mutator(data);
        String method = "POST";
        String path = "/chat/completions";
        if (f.nextInt(8) == 0) {
            method = f.pick(Exchange.METHODS);
            path = f.pick(PATHS) + (f.nextInt(2) == 0 ? "" : "/" + Exchange.segment(f.text(20)));
        }
        byte[] body = f.request(REQUESTS);
        Exchange answer;
        try (SilentCloseable loopback = Exchange.allowOnly(server.port())) {
            answer = Exchange.send(client, method, server.baseUrl() + path, body, Map.of());
        }
        Answers.checkHttp(answer.status(), answer.body(), answer.sent());
        log.check(method + " " + path + " " + Answers.abbreviate(answer.sent()));
    }
}
