package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.env.EnvServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fuzzing pass over {@code serve env}'s WebSocket messages (Jazzer, coverage-guided, a bounded number of
 * executions): each input resets the connection's episode with a valid message, then sends one fuzzed text message
 * (a mutated reset, step, state or close message, or the fuzzer's bytes) through exactly what {@code /ws} answers
 * each text message with. Every answer is one OpenEnv message (observation, state or error); an error has OpenEnv's
 * code (never EXECUTION_ERROR for a bad message) and a one-line message without a library's or Java's text; the
 * server logs no stack trace. The framing (binary frames, invalid UTF-8, sizes) is EnvSocketTest's.
 */
class ServeEnvWebSocketFuzzTest {
    private static final List<String> CODES = List.of("INVALID_JSON", "UNKNOWN_TYPE", "VALIDATION_ERROR", "SESSION_ERROR");
    private static final List<JsonNode> MESSAGES = messages();

    private static ServerLog log;
    private static EnvServer server;
    private static UnaryOperator<String> socket;

    private static List<JsonNode> messages() {
        List<JsonNode> m = new ArrayList<>(List.of(Json.parse("{\"type\":\"state\"}"), Json.parse("{\"type\":\"close\"}")));
        for (JsonNode reset : ServeEnvHttpFuzzTest.RESETS) m.add(Json.object().put("type", "reset").set("data", reset));
        for (JsonNode step : ServeEnvHttpFuzzTest.STEPS) m.add(Json.object().put("type", "step").set("data", step.get("action")));
        return m;
    }

    @BeforeAll
    static void start() throws IOException {
        log = ServerLog.capture();
        server = EnvServer.start(EnvServer.Config.loopback(true));
        socket = server.inProcessSession();
    }

    @AfterAll
    static void stop() throws Exception {
        log.closeAfter(server);
    }

    @FuzzTest(maxExecutions = 1500, maxDuration = "30s")
    void everyMessageGetsOneOpenEnvAnswer(FuzzedDataProvider data) {
        assertEquals("observation", Json.parse(socket.apply("{\"type\":\"reset\",\"data\":{}}")).path("type").asText());
        String text = new Mutator(data).requestText(MESSAGES);
        String answer;
        try {
            answer = socket.apply(text);
        } catch (IllegalArgumentException closing) {
            assertEquals("an in-process session has no connection to close", closing.getMessage());
            return;
        }
        String what = "for " + Answers.abbreviate(text) + ": " + Answers.abbreviate(answer);
        JsonNode a = Json.parse(answer);
        assertTrue(List.of("observation", "state", "error").contains(a.path("type").asText()), what);
        assertEquals(null, Answers.internalText(answer, text), "internal text " + what);
        if (a.path("type").asText().equals("error")) {
            assertTrue(CODES.contains(a.path("data").path("code").asText()), "an OpenEnv code of a client's error " + what);
            Answers.checkMessage(a.path("data").path("message").asText(""), answer);
        }
        log.check(what);
    }
}
