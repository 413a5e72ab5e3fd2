package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.TestHttp;
import dev.openagent.server.TestHttp.Response;
import dev.openagent.server.http.BearerAuth;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `serve env` over loopback: episodes, isolation, and every kind of bad input. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EnvServerTest {
    static EnvServer server;
    static TestHttp http;

    @BeforeAll
    static void start() throws Exception {
        server = EnvServer.start(EnvServer.Config.loopback(true));
        http = new TestHttp(server.baseUrl());
    }

    @AfterAll
    static void stop() {
        http.close();
        server.close();
    }

    static Response create(Map<String, Object> body) {
        Response r = http.post("/v1/sessions", body);
        assertEquals(200, r.status(), r.body().toString());
        return r;
    }

    /** Steps with the oracle's actions until done; returns the last step response. */
    static JsonNode playWithOracle(TestHttp h, String sid) {
        for (int i = 0; i < 40; i++) {
            Response o = h.get("/v1/sessions/" + sid + "/oracle");
            assertEquals(200, o.status(), o.body().toString());
            Response s = h.post("/v1/sessions/" + sid + "/step", o.body().get("action"));
            assertEquals(200, s.status(), s.body().toString());
            if (s.body().get("done").asBoolean()) return s.body();
        }
        throw new AssertionError("episode did not end");
    }

    @Test
    void oracleEpisodesGetRewardOneAndSessionsStayIsolated() {
        // Two sessions interleaved step by step: each must finish its own task correctly.
        JsonNode a = create(Map.of("env", "poi", "task", 0)).body();
        JsonNode b = create(Map.of("env", "poi", "split", "test", "seed", 42, "difficulty", 4)).body();
        assertNotEquals(a.get("session_id"), b.get("session_id"));
        assertEquals("train", a.get("split").asText());
        assertEquals(0, a.get("task_index").asInt());
        assertEquals("test", b.get("split").asText());
        assertEquals(42, b.get("seed").asLong());
        assertTrue(b.get("task_index").isNull());
        assertEquals(4, b.get("difficulty").asInt());
        for (JsonNode start : List.of(a, b)) {
            assertEquals("system", start.get("messages").get(0).get("role").asText());
            assertEquals(start.get("query").asText(), start.get("messages").get(1).get("content").asText());
            JsonNode tool = start.get("tools").get(0);
            assertEquals("function", tool.get("type").asText());
            assertTrue(tool.get("function").has("parameters"));
        }
        String sa = a.get("session_id").asText(), sb = b.get("session_id").asText();
        JsonNode lastA = null, lastB = null;
        for (int i = 0; i < 40 && (lastA == null || lastB == null); i++) {
            if (lastA == null) lastA = oneOracleStep(sa);
            if (lastB == null) lastB = oneOracleStep(sb);
        }
        for (JsonNode last : List.of(lastA, lastB)) {
            assertEquals(1.0, last.get("reward").asDouble(), last.toString());
            assertTrue(last.get("outcome").get("success").asBoolean());
            assertEquals("answered", last.get("outcome").get("end").asText());
            assertTrue(last.get("info").get("solvable").asBoolean());
        }
        // Later resets walk the task indices; each episode is solvable by the oracle.
        for (int e = 1; e <= 6; e++) {
            JsonNode r = http.post("/v1/sessions/" + sa + "/reset", "").body();
            assertEquals(e, r.get("task_index").asInt(), r.toString());
            assertEquals(1.0, playWithOracle(http, sa).get("reward").asDouble());
        }
        JsonNode trajectory = http.get("/v1/sessions/" + sa + "/trajectory").body();
        assertTrue(trajectory.get("outcome").get("success").asBoolean());
        assertEquals("remote", trajectory.get("agent").asText());
        assertEquals(200, http.delete("/v1/sessions/" + sa).status());
        assertEquals(404, http.get("/v1/sessions/" + sa).status());
        assertEquals(200, http.delete("/v1/sessions/" + sb).status());
    }

    private static JsonNode oneOracleStep(String sid) {
        JsonNode action = http.get("/v1/sessions/" + sid + "/oracle").body().get("action");
        JsonNode step = http.post("/v1/sessions/" + sid + "/step", action).body();
        assertTrue(step.has("observations"), step.toString());
        return step.get("done").asBoolean() ? step : null;
    }

    /**
     * Every environment under every shift of the catalog that applies to it, served: the oracle
     * (which reads the shift record) still gets reward 1, and inapplicable shifts are a clear 400.
     */
    @Test
    void everyEnvironmentUnderEveryShiftIsServedAndSolvableByTheOracle() {
        for (String env : dev.openagent.registry.Environments.ids()) {
            String sid = create(Map.of("env", env, "split", "test", "task", 2)).body().get("session_id").asText();
            for (int e = 0; e < 3; e++) {
                if (e > 0) assertEquals(200, http.post("/v1/sessions/" + sid + "/reset", "").status());
                assertEquals(1.0, playWithOracle(http, sid).get("reward").asDouble(), env + " static");
            }
            http.delete("/v1/sessions/" + sid);
            for (dev.openagent.shift.Shift shift : dev.openagent.shift.ShiftCatalog.all()) {
                Response created = http.post("/v1/sessions", Map.of("env", env, "shift", shift.id(), "split", "test", "task", 1));
                if (shift.notApplicable(dev.openagent.registry.Environments.get(env).info()).isPresent()) {
                    assertEquals(400, created.status(), env + " " + shift.id() + ": " + created.body());
                    assertEquals("invalid_shift", created.errorCode());
                    continue;
                }
                assertEquals(200, created.status(), env + " " + shift.id() + ": " + created.body());
                String shifted = created.body().get("session_id").asText();
                assertTrue(created.body().get("shift").asText().startsWith(shift.id()), created.body().get("shift").asText());
                JsonNode last = playWithOracle(http, shifted);
                assertEquals(1.0, last.get("reward").asDouble(), env + " " + shift.id() + ": " + last);
                http.delete("/v1/sessions/" + shifted);
            }
        }
    }

    @Test
    void stepAnswersInChatShapeAndCountsToolErrors() {
        String sid = create(Map.of("env", "poi")).body().get("session_id").asText();
        // Arguments as an object and no id are accepted; the unknown tool is the environment's error, not the server's.
        ObjectNode action = Json.object();
        action.putArray("tool_calls").addObject().putObject("function").put("name", "no_such_tool").putObject("arguments");
        JsonNode step = http.post("/v1/sessions/" + sid + "/step", action).body();
        JsonNode obs = step.get("observations").get(0);
        assertEquals("tool", obs.get("source").asText());
        assertEquals("call_0", obs.get("call_id").asText());
        assertEquals("UNKNOWN_TOOL", obs.get("error").get("code").asText());
        assertEquals(1, step.get("info").get("tool_errors").asInt());
        assertFalse(step.get("done").asBoolean());
        assertEquals(0.0, step.get("reward").asDouble());
        JsonNode msgs = step.get("messages");
        assertEquals("assistant", msgs.get(0).get("role").asText());
        assertEquals("tool", msgs.get(1).get("role").asText());
        assertEquals("call_0", msgs.get(1).get("tool_call_id").asText());
        assertFalse(msgs.get(1).has("error"), "messages stay in strict OpenAI shape");

        // An OpenAI assistant message with a refusal-marked content is a refusal.
        JsonNode end = http.post("/v1/sessions/" + sid + "/step",
                Map.of("role", "assistant", "content", "CANNOT COMPLETE: no such place")).body();
        assertTrue(end.get("done").asBoolean());
        assertEquals("refused", end.get("outcome").get("end").asText());
        assertEquals(0.0, end.get("reward").asDouble());

        Response again = http.post("/v1/sessions/" + sid + "/step", Map.of("answer", "x"));
        assertEquals(409, again.status());
        assertEquals("episode_over", again.errorCode());
        http.delete("/v1/sessions/" + sid);
    }

    record Bad(String method, String path, String body, int status, String code) {}

    @Test
    void everyBadInputIsAClearJsonErrorAndTheServerKeepsServing() {
        String sid = create(Map.of("env", "poi")).body().get("session_id").asText();
        String step = "/v1/sessions/" + sid + "/step";
        List<Bad> cases = List.of(
                new Bad("POST", "/v1/sessions", "{bad", 400, "malformed_json"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\"} trailing", 400, "malformed_json"),
                new Bad("POST", "/v1/sessions", "", 400, "malformed_json"),
                new Bad("POST", "/v1/sessions", "[1,2]", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":5}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"nope\"}", 400, "unknown_env"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"shift\":\"no.such-shift\"}", 400, "invalid_shift"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"shift\":\"tier:perception\"}", 400, "invalid_shift"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"task\":\"x\"}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"task\":-1}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"task\":1.5}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"difficulty\":9}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"split\":\"dev\"}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"seeds\":1}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"task\":1,\"seed\":2}", 400, "invalid_request"),
                new Bad("POST", "/v1/sessions", "{\"env\":\"poi\",\"env\":\"poi\"}", 400, "malformed_json"),
                new Bad("POST", "/v1/sessions/0123/step", "{\"answer\":\"x\"}", 404, "unknown_session"),
                new Bad("DELETE", "/v1/sessions/0123", null, 404, "unknown_session"),
                new Bad("GET", "/v1/nothing", null, 404, "not_found"),
                new Bad("GET", "/", null, 404, "not_found"),
                new Bad("GET", "/v1/sessions/" + sid + "/step", null, 405, "method_not_allowed"),
                new Bad("PUT", "/v1/sessions", "{}", 405, "method_not_allowed"),
                new Bad("POST", step, "{}", 400, "invalid_request"),
                new Bad("POST", step, "{\"tool_calls\":\"x\"}", 400, "invalid_request"),
                new Bad("POST", step, "{\"tool_calls\":[{\"function\":{\"name\":\"a\",\"arguments\":5}}]}", 400, "invalid_request"),
                new Bad("POST", step, "{\"tool_calls\":[{\"id\":7,\"function\":{\"name\":\"a\"}}]}", 400, "invalid_request"),
                new Bad("POST", step, "{\"tool_calls\":[{\"function\":{}}]}", 400, "invalid_request"),
                new Bad("POST", step, "{\"answer\":5}", 400, "invalid_request"),
                new Bad("POST", step, "{\"answer\":\"a\",\"refuse\":\"b\"}", 400, "invalid_request"),
                new Bad("POST", step, "{\"role\":\"user\",\"content\":\"hi\"}", 400, "invalid_request"),
                new Bad("POST", step, "{\"act\":\"x\"}", 400, "invalid_request"),
                new Bad("GET", "/v1/sessions/" + sid + "/trajectory", null, 409, "episode_running"),
                new Bad("POST", "/v1/sessions/" + sid + "/reset", "{\"task\":\"zero\"}", 400, "invalid_request"));
        for (Bad c : cases) {
            Response r = http.send(c.method(), c.path(), c.body());
            String what = c.method() + " " + c.path() + " " + c.body() + " -> " + r.status() + " " + r.body();
            assertEquals(c.status(), r.status(), what);
            assertEquals(c.code(), r.errorCode(), what);
            assertFalse(r.errorMessage().isBlank(), what);
            assertFalse(r.raw().body().contains("Exception"), "no stack traces or exception names: " + what);
        }
        Response wrongMethod = http.send("GET", "/v1/sessions/" + sid + "/step", null);
        assertEquals("POST", wrongMethod.raw().headers().firstValue("Allow").orElse(""));
        // Still serving, and the session is unharmed by all of the above.
        assertEquals(200, http.get("/v1/health").status());
        assertEquals(1.0, playWithOracle(http, sid).get("reward").asDouble());
        http.delete("/v1/sessions/" + sid);
    }

    @Test
    void oversizedBodiesAre413WhetherDeclaredOrChunked() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer small = EnvServer.start(new EnvServer.Config(d.host(), 0, BearerAuth.NONE, 4, d.idleTtl(), 1024, false));
             TestHttp h = new TestHttp(small.baseUrl())) {
            String big = "{\"env\":\"poi\",\"shift\":\"" + "x".repeat(4000) + "\"}";
            Response declared = h.post("/v1/sessions", big);
            assertEquals(413, declared.status(), declared.body().toString());
            assertEquals("payload_too_large", declared.errorCode());
            HttpRequest chunked = HttpRequest.newBuilder(URI.create(small.baseUrl() + "/v1/sessions"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                    .build();
            Response streamed = h.send(chunked);
            assertEquals(413, streamed.status(), streamed.body().toString());
            Response oracle = h.get("/v1/sessions/x/oracle");
            assertEquals(403, oracle.status());
            assertEquals("oracle_disabled", oracle.errorCode());
            assertEquals(200, h.post("/v1/sessions", Map.of("env", "poi")).status());
        }
    }

    @Test
    void bearerTokenIsRequiredWhenConfigured() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer locked = EnvServer.start(new EnvServer.Config(d.host(), 0, BearerAuth.of("s3cret"), 4, d.idleTtl(), d.maxBodyBytes(), false));
             TestHttp none = new TestHttp(locked.baseUrl());
             TestHttp wrong = new TestHttp(locked.baseUrl(), "s3cre");
             TestHttp right = new TestHttp(locked.baseUrl(), "s3cret")) {
            Response r = none.get("/v1/health");
            assertEquals(401, r.status());
            assertEquals("unauthorized", r.errorCode());
            assertEquals("Bearer", r.raw().headers().firstValue("WWW-Authenticate").orElse(""));
            assertEquals(401, wrong.post("/v1/sessions", Map.of("env", "poi")).status());
            assertEquals(200, right.get("/v1/health").status());
            assertEquals(200, right.post("/v1/sessions", Map.of("env", "poi")).status());
        }
    }

    @Test
    void sessionCapAndIdleExpiry() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer capped = EnvServer.start(new EnvServer.Config(d.host(), 0, BearerAuth.NONE, 2, Duration.ofMillis(400), d.maxBodyBytes(), false));
             TestHttp h = new TestHttp(capped.baseUrl())) {
            String first = h.post("/v1/sessions", Map.of("env", "poi")).body().get("session_id").asText();
            assertEquals(200, h.post("/v1/sessions", Map.of("env", "poi")).status());
            Response third = h.post("/v1/sessions", Map.of("env", "poi"));
            assertEquals(429, third.status());
            assertEquals("too_many_sessions", third.errorCode());
            assertEquals(200, h.delete("/v1/sessions/" + first).status());
            String kept = h.post("/v1/sessions", Map.of("env", "poi")).body().get("session_id").asText();
            // Idle sessions expire: poll (bounded) until the sweeper has dropped them.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (capped.sessionCount() > 0 && System.nanoTime() < deadline) Thread.sleep(50);
            assertEquals(0, capped.sessionCount());
            Response gone = h.post("/v1/sessions/" + kept + "/step", Map.of("answer", "x"));
            assertEquals(404, gone.status());
            assertEquals("unknown_session", gone.errorCode());
            assertEquals(200, h.post("/v1/sessions", Map.of("env", "poi")).status(), "expired sessions free their slots");
        }
    }

    @Test
    void keepAliveServesSeveralRequestsOnOneConnection() throws Exception {
        URI base = URI.create(server.baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            List<String> bodies = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                out.write(("GET /v1/health HTTP/1.1\r\nHost: " + base.getHost() + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                bodies.add(readResponse(in));
            }
            for (String b : bodies) assertTrue(b.contains("\"status\":\"ok\""), b);
        }
    }

    /** Reads one HTTP/1.1 response with a Content-Length body; returns the body. */
    private static String readResponse(InputStream in) throws Exception {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) throw new AssertionError("connection closed after: " + head);
            head.append((char) c);
        }
        assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
        int length = -1;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) length = Integer.parseInt(line.substring(15).strip());
        }
        assertTrue(length > 0, head.toString());
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }
}
