package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OpenEnv WebSocket protocol of `serve env` over loopback: episodes, message shapes, every kind of bad message. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EnvSocketTest {
    static EnvServer server;
    static JsonNode schema;

    @BeforeAll
    static void start() throws Exception {
        server = EnvServer.start(EnvServer.Config.loopback(true));
        schema = new OpenEnvDocs(EnvServer.Defaults.STANDARD, true, java.util.List.of(), Environments::all).schema();
    }

    @AfterAll
    static void stop() { server.close(); }

    /** Exactly OpenEnv's envelope, and an observation the published schema describes. */
    static JsonNode checkedObservation(JsonNode message) {
        assertEquals(Set.of("type", "data"), keys(message), message.toString());
        assertEquals("observation", message.get("type").asText(), message.toString());
        JsonNode data = message.get("data");
        assertEquals(Set.of("observation", "reward", "done"), keys(data));
        assertTrue(data.get("reward").isNull() || data.get("reward").isDouble(), data.toString());
        assertTrue(data.get("done").isBoolean());
        matchesSchema(data.get("observation"), schema.get("observation"));
        return data;
    }

    /** The object's keys are the schema's properties, with every required one present. */
    static void matchesSchema(JsonNode value, JsonNode objectSchema) {
        Set<String> allowed = keys(objectSchema.get("properties"));
        for (String k : keys(value)) assertTrue(allowed.contains(k), "'" + k + "' is not in the schema: " + value);
        for (JsonNode r : objectSchema.get("required")) assertTrue(value.has(r.asText()), "missing " + r + ": " + value);
    }

    static Set<String> keys(JsonNode o) {
        Set<String> out = new java.util.HashSet<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) out.add(it.next());
        return out;
    }

    static void checkedError(JsonNode message, String code, String context) {
        assertEquals(Set.of("type", "data"), keys(message), context + " -> " + message);
        assertEquals("error", message.get("type").asText(), context + " -> " + message);
        // OpenEnv's server adds the session counts to CAPACITY_REACHED, and so does this one; no other code carries more.
        Set<String> fields = code.equals("CAPACITY_REACHED") ? Set.of("message", "code", "active_sessions", "max_sessions") : Set.of("message", "code");
        assertEquals(fields, keys(message.get("data")), context + " -> " + message);
        assertEquals(code, message.get("data").get("code").asText(), context + " -> " + message);
        String text = message.get("data").get("message").asText();
        assertFalse(text.isBlank(), context);
        assertFalse(text.contains("Exception") || text.contains("java."), "no exception text: " + context + " -> " + text);
    }

    /**
     * Every environment under every shift of the catalog that applies to it, on one connection
     * whose resets switch environment and shift: the oracle (whose actions ride in each
     * observation with --allow-oracle) gets reward 1; inapplicable shifts are a VALIDATION_ERROR.
     */
    @Test
    void everyEnvironmentUnderEveryApplicableShiftIsSolvedByTheOracleOverOneConnection() throws IOException {
        try (TestSocket ws = new TestSocket(server)) {
            for (String env : Environments.ids()) {
                List<String> specs = new ArrayList<>(List.of("none"));
                ShiftCatalog.all().stream().map(Shift::id).forEach(specs::add);
                for (String spec : specs) {
                    JsonNode reset = ws.reset(Map.of("env", env, "shift", spec, "split", "test", "task", 1));
                    boolean applies = spec.equals("none") || ShiftCatalog.get(spec).notApplicable(Environments.get(env).info()).isEmpty();
                    if (!applies) {
                        checkedError(reset, "VALIDATION_ERROR", env + " " + spec);
                        continue;
                    }
                    JsonNode start = checkedObservation(reset);
                    assertTrue(start.get("reward").isNull());
                    JsonNode obs = start.get("observation");
                    assertEquals(env, obs.get("env").asText());
                    assertTrue(obs.get("shift").asText().startsWith(spec), obs.get("shift").asText());
                    assertEquals(1, obs.get("task_index").asInt());
                    assertEquals("system", obs.get("messages").get(0).get("role").asText());
                    JsonNode last = ws.playWithOracle(reset);
                    assertEquals(1.0, last.get("reward").asDouble(), env + " " + spec + ": " + last);
                    assertTrue(last.get("observation").get("outcome").get("success").asBoolean());
                    assertTrue(last.get("observation").get("oracle").isNull(), "no oracle action once done");
                    JsonNode state = ws.state();
                    assertEquals("state", state.get("type").asText());
                    matchesSchema(state.get("data"), schema.get("state"));
                    assertEquals(obs.get("episode_id"), state.get("data").get("episode_id"));
                    assertTrue(state.get("data").get("done").asBoolean());
                    assertEquals("remote", state.get("data").get("trajectory").get("agent").asText());
                }
            }
        }
    }

    @Test
    void episodesWalkTheTaskIndicesAndStepsCarryChatMessages() throws IOException {
        try (TestSocket ws = new TestSocket(server)) {
            JsonNode first = checkedObservation(ws.reset(Map.of("env", "poi", "episode_id", "mine-1")));
            assertEquals("mine-1", first.get("observation").get("episode_id").asText());
            assertEquals(0, first.get("observation").get("task_index").asInt());
            assertEquals("train", first.get("observation").get("split").asText(), "the server's default split");
            JsonNode tool = first.get("observation").get("tools").get(0);
            assertEquals("function", tool.get("type").asText());
            // An unknown tool is the environment's error, observed and counted, not the server's.
            JsonNode step = checkedObservation(ws.step(Json.parse(
                    "{\"tool_calls\":[{\"function\":{\"name\":\"no_such_tool\",\"arguments\":{}}}],\"metadata\":{}}")));
            JsonNode obs = step.get("observation");
            assertEquals("UNKNOWN_TOOL", obs.get("observations").get(0).get("error").get("code").asText());
            assertEquals(1, obs.get("tool_errors").asInt());
            assertEquals(0.0, step.get("reward").asDouble());
            assertEquals("assistant", obs.get("messages").get(0).get("role").asText());
            assertEquals("tool", obs.get("messages").get(1).get("role").asText());
            assertFalse(obs.has("tools"), "tools come with the reset");
            JsonNode refused = checkedObservation(ws.step(Json.parse("{\"role\":\"assistant\",\"content\":\"CANNOT COMPLETE: no\"}")));
            assertTrue(refused.get("done").asBoolean());
            assertEquals("refused", refused.get("observation").get("outcome").get("end").asText());
            for (int e = 1; e <= 3; e++) {
                JsonNode next = ws.reset(Map.of());
                assertEquals(e, checkedObservation(next).get("observation").get("task_index").asInt(), "resets walk the indices");
                assertEquals(1.0, ws.playWithOracle(next).get("reward").asDouble());
            }
        }
    }

    /** Messages that must be refused before any reset, one a line: message | error code. */
    private static final String BEFORE_RESET = """
            not json                                            | INVALID_JSON
            {"type":"reset"} trailing                           | INVALID_JSON
            [1,2]                                               | INVALID_JSON
            {"type":"reset","type":"step"}                      | INVALID_JSON
            {}                                                  | UNKNOWN_TYPE
            {"type":5}                                          | UNKNOWN_TYPE
            {"type":"dance"}                                    | UNKNOWN_TYPE
            {"type":"reset","data":5}                           | VALIDATION_ERROR
            {"type":"reset","extra":1}                          | VALIDATION_ERROR
            {"type":"reset","data":{"seeds":1}}                 | VALIDATION_ERROR
            {"type":"reset","data":{"seed":-1}}                 | VALIDATION_ERROR
            {"type":"reset","data":{"seed":1.5}}                | VALIDATION_ERROR
            {"type":"reset","data":{"task":"zero"}}             | VALIDATION_ERROR
            {"type":"reset","data":{"task":1,"seed":2}}         | VALIDATION_ERROR
            {"type":"reset","data":{"env":"nope"}}              | VALIDATION_ERROR
            {"type":"reset","data":{"shift":"tier:perception"}} | VALIDATION_ERROR
            {"type":"reset","data":{"shift":"no.such-shift"}}   | VALIDATION_ERROR
            {"type":"reset","data":{"difficulty":9}}            | VALIDATION_ERROR
            {"type":"reset","data":{"split":"dev"}}             | VALIDATION_ERROR
            {"type":"state","data":{}}                          | VALIDATION_ERROR
            """;

    /** Steps that must be refused once an episode runs, one a line: message | error code. */
    private static final String AFTER_RESET = """
            {"type":"step"}                                                                 | VALIDATION_ERROR
            {"type":"step","data":{}}                                                       | VALIDATION_ERROR
            {"type":"step","data":{"act":"x"}}                                              | VALIDATION_ERROR
            {"type":"step","data":{"answer":5}}                                             | VALIDATION_ERROR
            {"type":"step","data":{"answer":"a","refuse":"b"}}                              | VALIDATION_ERROR
            {"type":"step","data":{"tool_calls":"x"}}                                       | VALIDATION_ERROR
            {"type":"step","data":{"tool_calls":[{"function":{"name":"a","arguments":5}}]}} | VALIDATION_ERROR
            {"type":"step","data":{"metadata":5,"answer":"x"}}                              | VALIDATION_ERROR
            {"type":"step","data":{"role":"user","content":"hi"}}                           | VALIDATION_ERROR
            """;

    record Bad(String message, String code) {
        static List<Bad> table(String lines) {
            return lines.lines().map(l -> new Bad(l.substring(0, l.lastIndexOf('|')).strip(), l.substring(l.lastIndexOf('|') + 1).strip())).toList();
        }
    }

    @Test
    void everyBadMessageGetsAnOpenEnvErrorAndTheConnectionKeepsServing() throws IOException {
        try (TestSocket ws = new TestSocket(server)) {
            checkedError(ws.send("{\"type\":\"step\",\"data\":{\"answer\":\"x\"}}"), "SESSION_ERROR", "step before any reset");
            for (Bad c : Bad.table(BEFORE_RESET)) checkedError(ws.send(c.message()), c.code(), c.message());
            String longId = "{\"type\":\"reset\",\"data\":{\"episode_id\":\"" + "e".repeat(256) + "\"}}";
            checkedError(ws.send(longId), "VALIDATION_ERROR", "an episode id of 256 characters");
            checkedObservation(ws.reset(Map.of("env", "poi")));
            for (Bad c : Bad.table(AFTER_RESET)) checkedError(ws.send(c.message()), c.code(), c.message());
            JsonNode reset = ws.reset(Map.of("env", "poi", "task", 2));
            assertEquals(1.0, ws.playWithOracle(reset).get("reward").asDouble(), "the session is unharmed");
            checkedError(ws.send("{\"type\":\"step\",\"data\":{\"answer\":\"x\"}}"), "SESSION_ERROR", "step after the episode ended");
        }
        assertEquals(200, new dev.openagent.server.TestHttp(server.baseUrl()).get("/health").status());
    }

    @Test
    void closeMessageEndsTheSessionAndFreesItsSlot() throws Exception {
        // Only this class's WebSockets use the shared server, and the server frees an earlier test's slot
        // when it sees that socket close, which may come after this test starts: start from none.
        awaitSessions(server, 0);
        int before = 0;
        TestSocket ws = new TestSocket(server);
        checkedObservation(ws.reset(Map.of()));
        assertEquals(before + 1, server.sessionCount());
        ws.ws.send("{\"type\":\"close\"}".getBytes(StandardCharsets.US_ASCII));
        WebSocketConnection.Closed closed = assertThrows(WebSocketConnection.Closed.class, ws.ws::receive);
        assertEquals(1000, closed.code);
        ws.close();
        awaitSessions(server, before);
    }

    @Test
    void invalidUtf8AndOversizedMessagesCloseTheConnectionTheWayRfc6455SaysAndTheServerKeepsServing() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer small = EnvServer.start(d.withLimits(8, d.idleTtl(), 1024))) {
            try (TestSocket ws = new TestSocket(small)) {
                ws.ws.sendFrame(0x1, new byte[] {'{', '"', (byte) 0xff, '"', '}'});
                assertEquals(1007, assertThrows(WebSocketConnection.Closed.class, ws.ws::receive).code, "invalid UTF-8 in a text frame");
            }
            try (TestSocket ws = new TestSocket(small)) {
                ws.ws.send(("{\"type\":\"reset\",\"data\":{\"episode_id\":\"" + "x".repeat(2000) + "\"}}").getBytes(StandardCharsets.UTF_8));
                assertEquals(1009, assertThrows(WebSocketConnection.Closed.class, ws.ws::receive).code, "message over --max-body");
            }
            try (TestSocket ws = new TestSocket(small)) {
                checkedObservation(ws.reset(Map.of()));
            }
            awaitSessions(small, 0);
        }
    }

    @Test
    void capacityIsSharedWithHttpSessionsAndAFullServerSaysSo() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer one = EnvServer.start(d.withLimits(1, d.idleTtl(), d.maxBodyBytes()));
             dev.openagent.server.TestHttp http = new dev.openagent.server.TestHttp(one.baseUrl())) {
            TestSocket first = new TestSocket(one);
            checkedObservation(first.reset(Map.of()));
            try (TestSocket second = new TestSocket(one)) {
                JsonNode full = Json.MAPPER.readTree(second.ws.receive());
                checkedError(full, "CAPACITY_REACHED", "second connection");
                assertEquals(1, full.get("data").get("active_sessions").asInt(), full.toString());
                assertEquals(1, full.get("data").get("max_sessions").asInt(), full.toString());
                assertEquals(1013, assertThrows(WebSocketConnection.Closed.class, second.ws::receive).code);
            }
            assertEquals(429, http.post("/reset", "{}").status());
            first.close();
            awaitSessions(one, 0);
            try (TestSocket third = new TestSocket(one)) {
                checkedObservation(third.reset(Map.of()));
            }
        }
    }

    /**
     * The TTL leaves a loaded machine time to connect and reset (the reset must come before the connection idles);
     * then the test waits (within the socket's 30 s read timeout) for the server to close the idle connection.
     */
    @Test
    void idleConnectionsCloseAfterTheTtlAndFreeTheirSlot() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer quick = EnvServer.start(d.withLimits(4, Duration.ofSeconds(2), d.maxBodyBytes()))) {
            try (TestSocket ws = new TestSocket(quick)) {
                checkedObservation(ws.reset(Map.of()));
                assertThrows(IOException.class, ws.ws::receive, "the server closes the idle connection");
            }
            awaitSessions(quick, 0);
        }
    }

    @Test
    void theTokenGuardsTheUpgradeAndTheOracleStaysBehindItsFlag() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        EnvServer.Config locked = new EnvServer.Config(d.host(), 0, BearerAuth.of("s3cret"), 4, d.idleTtl(), d.maxBodyBytes(), false, d.defaults(), d.catalog());
        try (EnvServer server = EnvServer.start(locked)) {
            IOException refused = assertThrows(IOException.class, () -> new TestSocket(server).close());
            assertTrue(refused.getMessage().contains("401"), refused.getMessage());
            assertThrows(IOException.class, () -> new TestSocket(server, "Bearer wrong").close());
            try (TestSocket ws = new TestSocket(server, "bearer s3cret")) {
                JsonNode obs = checkedObservation(ws.reset(Map.of())).get("observation");
                assertNull(obs.get("oracle"), "no oracle without --allow-oracle");
            }
        }
    }

    /** A web page cannot open /ws (nor call the HTTP routes) on a server without a token: Origin and Host are checked, as on serve mcp. */
    @Test
    void foreignOriginsAndHostsCannotOpenASession() throws Exception {
        URI uri = URI.create(server.baseUrl());
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort());
        IOException origin = assertThrows(IOException.class, () -> new WebSocketConnection(address, uri.getRawAuthority(), "/ws", 10_000,
                Map.of("Origin", "http://evil.example")).close());
        assertTrue(origin.getMessage().contains("403"), origin.getMessage());
        IOException host = assertThrows(IOException.class, () -> new WebSocketConnection(address, "rebound.evil.example:" + uri.getPort(), "/ws",
                10_000, Map.of()).close());
        assertTrue(host.getMessage().contains("403"), host.getMessage());
        try (dev.openagent.server.TestHttp http = new dev.openagent.server.TestHttp(server.baseUrl())) {
            var refused = http.send("POST", "/reset", "{}", Map.of("Origin", "https://evil.example"));
            assertEquals(403, refused.status());
            assertEquals("forbidden_origin", refused.errorCode());
        }
        try (WebSocketConnection local = new WebSocketConnection(address, uri.getRawAuthority(), "/ws", 10_000, Map.of("Origin", "http://localhost:8080"))) {
            local.send("{\"type\":\"state\"}".getBytes(StandardCharsets.UTF_8));
            assertEquals("state", Json.MAPPER.readTree(local.receive()).path("type").asText(), "a page on localhost may connect");
        }
    }

    /** A binary frame is no OpenEnv message: the connection closes with 1003 instead of leaving the client waiting. */
    @Test
    void binaryFramesCloseTheConnectionWith1003() throws Exception {
        int before = server.sessionCount();
        try (TestSocket ws = new TestSocket(server)) {
            ws.ws.sendFrame(0x2, "{\"type\":\"state\"}".getBytes(StandardCharsets.UTF_8));
            WebSocketConnection.Closed closed = assertThrows(WebSocketConnection.Closed.class, ws.ws::receive);
            assertEquals(1003, closed.code);
            assertTrue(closed.reason.contains("text frame"), closed.reason);
        }
        awaitSessions(server, before);
    }

    static void awaitSessions(EnvServer s, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (s.sessionCount() != n && System.nanoTime() < deadline) Thread.sleep(20);
        assertEquals(n, s.sessionCount());
    }
}
