package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.env.EnvServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The fuzzing pass over {@code serve env}'s HTTP API (Jazzer, coverage-guided, a bounded number of executions): each
 * input opens a session with a valid reset, sends one fuzzed request on it ({@code POST /reset} or {@code /step} with
 * a mutated body, now and then another route or method, no session or a fuzzed one) and closes it. Every answer is
 * below 500 and JSON, a 4xx one a problem with a one-line message, none with a library's or Java's text, and the
 * server logs no stack trace. The server binds 127.0.0.1 and is stopped after the pass.
 */
class ServeEnvHttpFuzzTest {
    private static final String CALL = "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search_places\",\"arguments\":\"{\\\"city\\\":\\\"X\\\"}\"}}";
    /** Bodies of POST /step: each kind of action OpenEnv clients send, and the step options. */
    static final List<JsonNode> STEPS = List.of(
            Json.parse("{\"action\":{\"tool_calls\":[" + CALL + "]}}"), Json.parse("{\"action\":{\"answer\":\"X 12\"}}"),
            Json.parse("{\"action\":{\"refuse\":\"no\"}}"), Json.parse("{\"action\":{\"ask_user\":\"which?\"}}"),
            Json.parse("{\"action\":{\"command\":\"ls\"}}"),
            Json.parse("{\"action\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[" + CALL + "],\"metadata\":{}}}"),
            Json.parse("{\"action\":{\"answer\":\"x\"},\"timeout_s\":5,\"request_id\":\"r1\"}"));
    /** Bodies of POST /reset: every field, a shifted stack. */
    static final List<JsonNode> RESETS = List.of(
            Json.parse("{\"env\":\"poi\",\"shift\":\"none\",\"split\":\"test\",\"difficulty\":1,\"task\":3,\"run_seed\":1,\"episode_id\":\"e1\"}"),
            Json.parse("{\"env\":\"poi\",\"shift\":\"obs.format:format=xml\",\"seed\":7}"), Json.parse("{}"));
    private static final List<String> PATHS = List.of("/reset", "/step", "/state", "/close", "/health", "/metadata", "/schema",
            "/openapi.json", "/ws", "/");

    private static ServerLog log;
    private static EnvServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        log = ServerLog.capture();
        server = EnvServer.start(EnvServer.Config.loopback(true));
        client = Exchange.client();
    }

    @AfterAll
    static void stop() throws Exception {
        log.closeAfter(client, server);
    }

    @FuzzTest(maxExecutions = 1500, maxDuration = "30s")
    void everyRequestGetsAJsonAnswer(FuzzedDataProvider data) {
        try (SilentCloseable loopback = Exchange.allowOnly(server.port())) {
            exchange(new Mutator(data));
        }
    }

    private static void exchange(Mutator f) {
        Exchange first = Exchange.send(client, "POST", server.baseUrl() + "/reset", "{}".getBytes(StandardCharsets.UTF_8), Map.of());
        assertEquals(200, first.status(), first.body());
        String session = first.headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
        String method = "POST";
        String path;
        byte[] body;
        switch (f.nextInt(8)) {
            case 0 -> {
                method = f.pick(Exchange.METHODS);
                path = f.pick(PATHS) + (f.nextInt(2) == 0 ? "" : "/" + Exchange.segment(f.text(20)));
                body = f.request(STEPS);
            }
            case 1, 2, 3 -> {
                path = "/reset";
                body = f.request(RESETS);
            }
            default -> {
                path = "/step";
                body = f.request(STEPS);
            }
        }
        Map<String, String> headers = switch (f.nextInt(8)) {
            case 0 -> Map.of();
            case 1 -> {
                String id = f.headerText(40);
                yield id.isEmpty() ? Map.of() : Map.of(EnvServer.SESSION_HEADER, id);
            }
            default -> Map.of(EnvServer.SESSION_HEADER, session);
        };
        Exchange answer = Exchange.send(client, method, server.baseUrl() + path, body, headers);
        Answers.checkHttp(answer.status(), answer.body(), answer.sent());
        log.check(method + " " + path + " " + Answers.abbreviate(answer.sent()));
        List<String> opened = new ArrayList<>(List.of(session));
        answer.headers().firstValue(EnvServer.SESSION_HEADER).filter(s -> !s.equals(session)).ifPresent(opened::add);   // a headerless reset's
        for (String s : opened) Exchange.send(client, "POST", server.baseUrl() + "/close", new byte[0], Map.of(EnvServer.SESSION_HEADER, s));
    }
}
