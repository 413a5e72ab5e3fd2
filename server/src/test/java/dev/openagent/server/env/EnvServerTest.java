package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.TestHttp;
import dev.openagent.server.TestHttp.Response;
import dev.openagent.server.http.BearerAuth;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.openagent.server.env.EnvSocketTest.keys;
import static dev.openagent.server.env.EnvSocketTest.matchesSchema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `serve env` over HTTP: OpenEnv's endpoints, sessions by header, and every kind of bad request. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EnvServerTest {
    static EnvServer server;
    static TestHttp http;
    static JsonNode schema;

    @BeforeAll
    static void start() throws Exception {
        server = EnvServer.start(EnvServer.Config.loopback(true));
        http = new TestHttp(server.baseUrl());
        schema = http.get("/schema").body();
    }

    @AfterAll
    static void stop() {
        http.close();
        server.close();
    }

    static Map<String, String> session(String id) { return Map.of(EnvServer.SESSION_HEADER, id); }

    /** {observation, reward, done} and nothing else, with an observation the schema describes. */
    static JsonNode checked(Response r) {
        assertEquals(200, r.status(), r.body().toString());
        assertEquals(Set.of("observation", "reward", "done"), keys(r.body()));
        matchesSchema(r.body().get("observation"), schema.get("observation"));
        return r.body();
    }

    static JsonNode playWithOracle(String sid, JsonNode start) {
        JsonNode last = start;
        for (int i = 0; i < 60; i++) {
            String body = Json.write(Json.object().set("action", last.get("observation").get("oracle")));
            last = checked(http.send("POST", "/step", body, session(sid)));
            if (last.get("done").asBoolean()) return last;
        }
        throw new AssertionError("episode did not end");
    }

    @Test
    void openEnvEndpointsAnswerExactlyOpenEnvsShapes() {
        assertEquals(Json.parse("{\"status\":\"healthy\"}"), http.get("/health").body());
        JsonNode meta = http.get("/metadata").body();
        assertTrue(Set.of("name", "description", "readme_content", "version", "author", "documentation_url").containsAll(keys(meta)), meta.toString());
        assertEquals("openagent", meta.get("name").asText());
        assertTrue(meta.get("readme_content").asText().contains("household"), "the environments are listed");
        assertEquals(Set.of("action", "observation", "state"), keys(schema));
        JsonNode openApi = http.get("/openapi.json").body();
        assertTrue(openApi.get("info").get("version").isTextual());
        assertTrue(keys(openApi.get("paths")).containsAll(Set.of("/reset", "/step", "/state")));
        Response head = http.send("HEAD", "/health", null);
        assertEquals(200, head.status());
    }

    @Test
    void httpSessionsPlayOracleEpisodesAndStayIsolated() {
        Response ra = http.post("/reset", Map.of("env", "poi", "task", 0));
        Response rb = http.post("/reset", Map.of("env", "retail", "split", "test", "seed", 42, "shift", "obs.format:format=xml"));
        JsonNode a = checked(ra), b = checked(rb);
        String sa = ra.raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
        String sb = rb.raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
        assertNotEquals(sa, sb);
        assertTrue(a.get("reward").isNull());
        assertEquals("test", b.get("observation").get("split").asText());
        assertTrue(b.get("observation").get("task_index").isNull(), "chosen by seed");
        // Interleaved: each session finishes its own task.
        JsonNode la = a, lb = b;
        for (int i = 0; i < 60 && !(la.get("done").asBoolean() && lb.get("done").asBoolean()); i++) {
            if (!la.get("done").asBoolean()) la = checked(http.send("POST", "/step", Json.write(Json.object().set("action", la.get("observation").get("oracle"))), session(sa)));
            if (!lb.get("done").asBoolean()) lb = checked(http.send("POST", "/step", Json.write(Json.object().set("action", lb.get("observation").get("oracle"))), session(sb)));
        }
        assertEquals(1.0, la.get("reward").asDouble(), la.toString());
        assertEquals(1.0, lb.get("reward").asDouble(), lb.toString());
        JsonNode state = http.send("GET", "/state", null, session(sa)).body();
        matchesSchema(state, schema.get("state"));
        assertEquals("poi", state.get("env").asText());
        assertTrue(state.get("done").asBoolean());
        // The next reset of a session takes the next task index; timeout_s and request_id are OpenEnv's StepRequest options.
        JsonNode next = checked(http.send("POST", "/reset", "", session(sa)));
        assertEquals(1, next.get("observation").get("task_index").asInt());
        ObjectNodeBuilder step = new ObjectNodeBuilder(next.get("observation").get("oracle"));
        assertEquals(200, http.send("POST", "/step", step.json(), session(sa)).status());
        assertEquals(200, http.send("POST", "/close", null, session(sa)).status());
        assertEquals(404, http.send("GET", "/state", null, session(sa)).status());
        assertEquals(200, http.send("POST", "/close", null, session(sb)).status());
    }

    /** The OpenAPI document, the routes served and the not-found answer's list come from one declaration: they agree. */
    @Test
    void everyDocumentedRouteIsServedAndListedWhereAPathIsNotFound() {
        String listed = http.get("/nothing").errorMessage();
        JsonNode paths = http.get("/openapi.json").body().get("paths");
        assertEquals(Set.of("/health", "/metadata", "/schema", "/state", "/reset", "/step", "/close"), keys(paths));
        for (Map.Entry<String, JsonNode> p : paths.properties()) {
            for (String method : keys(p.getValue())) {
                String route = method.toUpperCase(java.util.Locale.ROOT) + " " + p.getKey();
                assertTrue(listed.contains(route), route + " is not listed: " + listed);
                Response r = http.send(route.split(" ")[0], p.getKey(), method.equals("post") ? "{}" : null);
                assertTrue(r.status() != 404 && r.status() != 405, route + " answered " + r.status() + " " + r.raw().body());
            }
        }
        assertTrue(listed.contains("GET /openapi.json") && listed.contains("GET /ws (WebSocket)"), listed);
    }

    /** A step request with OpenEnv's optional fields. */
    record ObjectNodeBuilder(JsonNode action) {
        String json() {
            return Json.write(Json.object().put("timeout_s", 5.0).put("request_id", "r-1").set("action", action));
        }
    }

    /** The bad requests, one a line: method | path | body (- for none) | with the session | status | error code. */
    private static final String BAD_REQUESTS = """
            POST | /reset     | {bad                                         | no  | 400 | malformed_json
            POST | /reset     | {"env":"poi"} trailing                       | no  | 400 | malformed_json
            POST | /reset     | [1,2]                                        | no  | 400 | invalid_request
            POST | /reset     | {"env":5}                                    | no  | 400 | invalid_request
            POST | /reset     | {"env":"nope"}                               | no  | 400 | unknown_env
            POST | /reset     | {"shift":"no.such-shift"}                    | no  | 400 | invalid_shift
            POST | /reset     | {"shift":"all"}                              | no  | 400 | invalid_shift
            POST | /reset     | {"task":"x"}                                 | no  | 400 | invalid_request
            POST | /reset     | {"task":-1}                                  | no  | 400 | invalid_request
            POST | /reset     | {"seed":-5}                                  | no  | 400 | invalid_request
            POST | /reset     | {"difficulty":9}                             | no  | 400 | invalid_request
            POST | /reset     | {"split":"dev"}                              | no  | 400 | invalid_request
            POST | /reset     | {"seeds":1}                                  | no  | 400 | invalid_request
            POST | /reset     | {"env":"poi","env":"poi"}                    | no  | 400 | malformed_json
            POST | /step      | {"action":{"answer":"x"}}                    | no  | 400 | invalid_request
            GET  | /state     | -                                            | no  | 400 | invalid_request
            POST | /step      | {}                                           | yes | 400 | invalid_request
            POST | /step      | {"answer":"x"}                               | yes | 400 | invalid_request
            POST | /step      | {"action":"x"}                               | yes | 400 | invalid_request
            POST | /step      | {"action":{"answer":5}}                      | yes | 400 | invalid_request
            POST | /step      | {"action":{"tool_calls":[{"function":{}}]}}  | yes | 400 | invalid_request
            POST | /step      | {"action":{"answer":"x"},"timeout_s":0}      | yes | 400 | invalid_request
            POST | /step      | {"action":{"answer":"x"},"timeout_s":"soon"} | yes | 400 | invalid_request
            GET  | /nothing   | -                                            | no  | 404 | not_found
            GET  | /v1/health | -                                            | no  | 404 | not_found
            GET  | /step      | -                                            | yes | 405 | method_not_allowed
            PUT  | /reset     | {}                                           | no  | 405 | method_not_allowed
            HEAD | /reset     | -                                            | no  | 405 | method_not_allowed
            GET  | /ws        | -                                            | no  | 426 | upgrade_required
            POST | /ws        | {}                                           | no  | 426 | upgrade_required
            """;

    record Bad(String method, String path, String body, boolean withSession, int status, String code) {
        static Bad parse(String line) {
            String[] f = line.split("\\|");
            String body = f[2].strip();
            return new Bad(f[0].strip(), f[1].strip(), body.equals("-") ? null : body, f[3].strip().equals("yes"), Integer.parseInt(f[4].strip()), f[5].strip());
        }
    }

    @Test
    void everyBadRequestIsAClearJsonErrorAndTheServerKeepsServing() {
        Response created = http.post("/reset", Map.of("env", "poi"));
        String sid = created.raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
        List<Bad> cases = BAD_REQUESTS.lines().map(Bad::parse).toList();
        for (Bad c : cases) {
            Response r = http.send(c.method(), c.path(), c.body(), c.withSession() ? session(sid) : Map.of());
            String what = c.method() + " " + c.path() + " " + c.body() + " -> " + r.status() + " " + r.raw().body();
            assertEquals(c.status(), r.status(), what);
            if (!c.method().equals("HEAD")) {
                assertEquals(c.code(), r.errorCode(), what);
                assertFalse(r.errorMessage().isBlank(), what);
                assertFalse(r.raw().body().contains("Exception"), "no exception text: " + what);
            }
            assertTrue(r.raw().headers().firstValue("Content-Type").orElse("").startsWith("application/json"), what);
        }
        Response unknown = http.send("POST", "/step", "{\"action\":{\"answer\":\"x\"}}", session("0123"));
        assertEquals(404, unknown.status());
        assertEquals("unknown_session", unknown.errorCode());
        assertEquals("POST", http.send("GET", "/step", null, session(sid)).raw().headers().firstValue("Allow").orElse(""));
        // Still serving, and the session is unharmed by all of the above.
        JsonNode start = checked(http.send("POST", "/reset", "{\"task\":3}", session(sid)));
        assertEquals(1.0, playWithOracle(sid, start).get("reward").asDouble());
        Response over = http.send("POST", "/step", "{\"action\":{\"answer\":\"x\"}}", session(sid));
        assertEquals(409, over.status());
        assertEquals("episode_over", over.errorCode());
        http.send("POST", "/close", null, session(sid));
    }

    @Test
    void oversizedBodiesAre413WhetherDeclaredOrChunked() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer small = EnvServer.start(d.withLimits(4, d.idleTtl(), 1024));
             TestHttp h = new TestHttp(small.baseUrl())) {
            String big = "{\"env\":\"poi\",\"shift\":\"" + "x".repeat(4000) + "\"}";
            Response declared = h.post("/reset", big);
            assertEquals(413, declared.status(), declared.body().toString());
            assertEquals("payload_too_large", declared.errorCode());
            HttpRequest chunked = HttpRequest.newBuilder(URI.create(small.baseUrl() + "/reset"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))))
                    .build();
            Response streamed = h.send(chunked);
            assertEquals(413, streamed.status(), streamed.body().toString());
            assertEquals(200, h.post("/reset", Map.of("env", "poi")).status());
            assertFalse(checked(h.post("/reset", "{}")).get("observation").has("oracle"), "no oracle without --allow-oracle");
        }
    }

    @Test
    void bearerTokenIsRequiredWhenConfigured() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer locked = EnvServer.start(new EnvServer.Config(d.host(), 0, BearerAuth.of("s3cret"), 4, d.idleTtl(), d.maxBodyBytes(), false, d.defaults(), d.catalog()));
             TestHttp none = new TestHttp(locked.baseUrl());
             TestHttp wrong = new TestHttp(locked.baseUrl(), "s3cre");
             TestHttp right = new TestHttp(locked.baseUrl(), "s3cret")) {
            assertEquals(200, none.get("/health").status(), "a health probe (Kubernetes') needs no token");
            assertEquals(200, none.send("HEAD", "/health", null).status());
            for (String path : List.of("/metadata", "/schema", "/openapi.json", "/state", "/health/", "/Health")) {
                assertEquals(401, none.get(path).status(), path);
            }
            Response r = none.get("/metadata");
            assertEquals(401, r.status());
            assertEquals("unauthorized", r.errorCode());
            assertEquals("Bearer", r.raw().headers().firstValue("WWW-Authenticate").orElse(""));
            assertEquals(401, wrong.post("/reset", Map.of("env", "poi")).status());
            assertEquals(401, none.post("/reset", Map.of("env", "poi")).status());
            assertEquals(200, right.get("/health").status());
            assertEquals(200, right.post("/reset", Map.of("env", "poi")).status());
        }
    }

    /** The cap, with a TTL no test outlives: no session can expire between the requests that fill the slots. */
    @Test
    void sessionCap() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer capped = EnvServer.start(d.withLimits(2, Duration.ofHours(1), d.maxBodyBytes()));
             TestHttp h = new TestHttp(capped.baseUrl())) {
            String first = h.post("/reset", "{}").raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
            assertEquals(200, h.post("/reset", "{}").status());
            Response third = h.post("/reset", "{}");
            assertEquals(429, third.status());
            assertEquals("too_many_sessions", third.errorCode());
            assertEquals(200, h.send("POST", "/close", null, session(first)).status());
            assertEquals(200, h.post("/reset", "{}").status(), "a closed session frees its slot");
            assertEquals(429, h.post("/reset", "{}").status());
        }
    }

    /** Idle sessions expire, however slow the machine: poll (bounded) until the sweeper has dropped them; they free their slots. */
    @Test
    void idleSessionsExpireAndFreeTheirSlots() throws Exception {
        EnvServer.Config d = EnvServer.Config.loopback(false);
        try (EnvServer capped = EnvServer.start(d.withLimits(2, Duration.ofMillis(400), d.maxBodyBytes()));
             TestHttp h = new TestHttp(capped.baseUrl())) {
            h.post("/reset", "{}");
            String kept = h.post("/reset", "{}").raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
            EnvSocketTest.awaitSessions(capped, 0);
            Response gone = h.send("POST", "/step", "{\"action\":{\"answer\":\"x\"}}", session(kept));
            assertEquals(404, gone.status());
            assertEquals("unknown_session", gone.errorCode());
            assertEquals(200, h.post("/reset", "{}").status(), "expired sessions free their slots");
        }
    }

    /**
     * What the fuzzing pass found: a message quoting the client's text (an unknown environment, an unknown field)
     * carried its line breaks and control characters, so one error printed as several lines of the client's making.
     * Now they are escapes, over HTTP and on the WebSocket alike.
     */
    @Test
    void errorsQuotingTheClientsTextStayOneLine() throws java.io.IOException {
        Response r = http.post("/reset", Json.object().put("env", "a\nb\u2028c\rd\te"));
        assertEquals("unknown_env", r.errorCode(), r.body().toString());
        assertTrue(r.errorMessage().startsWith("unknown environment 'a\\u000Ab\\u2028c\\u000Dd\\u0009e'"), r.errorMessage());
        try (EnvServer s = EnvServer.start(EnvServer.Config.loopback(false))) {
            JsonNode answer = Json.parse(s.inProcessSession().apply("{\"type\":\"state\",\"x\\ny\":1}"));
            String message = answer.path("data").path("message").asText();
            assertEquals("VALIDATION_ERROR", answer.path("data").path("code").asText(), answer.toString());
            assertTrue(message.contains("'x\\u000Ay'") && message.lines().count() == 1, message);
        }
    }
}
