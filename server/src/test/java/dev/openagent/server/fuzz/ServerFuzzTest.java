package dev.openagent.server.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.FinishedEpisode;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.TestHttp;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.mcp.McpEnvServer;
import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ModelServer;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The request parsers of the three servers and the {@code --shift} grammar, fuzzed from valid messages (see
 * {@link Fuzz}) within a budget of tries: no input reaches a 5xx, a JSON-RPC internal error, a stack trace in the
 * server's log, or an answer that quotes a library's or Java's own text.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ServerFuzzTest {
    private static final String CALL = "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"search_places\",\"arguments\":\"{\\\"city\\\":\\\"X\\\"}\"}}";
    private static final List<JsonNode> ACTIONS = List.of(
            Json.parse("{\"tool_calls\":[" + CALL + "]}"), Json.parse("{\"answer\":\"X 12\"}"), Json.parse("{\"refuse\":\"no\"}"),
            Json.parse("{\"ask_user\":\"which?\"}"), Json.parse("{\"command\":\"ls\"}"),
            Json.parse("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[" + CALL + "],\"metadata\":{}}"));
    private static final JsonNode RESET = Json.parse("{\"env\":\"poi\",\"shift\":\"none\",\"split\":\"test\",\"difficulty\":1,\"task\":3,"
            + "\"run_seed\":1,\"episode_id\":\"e1\"}");

    /** What every answer of an HTTP server must be: below 500, JSON, and an error that says what is wrong in its own words. */
    private static void checkHttp(TestHttp.Response r, String sent) {
        assertTrue(r.status() < 500, r.status() + " for " + abbreviate(sent) + ": " + abbreviate(r.raw().body()));
        assertNull(Fuzz.internalText(r.raw().body()), "internal text for " + abbreviate(sent) + ": " + abbreviate(r.raw().body()));
        if (r.status() >= 400 && r.body().has("error") && r.body().get("error").isObject()) {
            assertFalse(r.errorMessage().isBlank(), "an error says what is wrong: " + r.raw().body());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 300 ? s : s.substring(0, 300) + "...";
    }

    private static HttpRequest post(String url, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", "application/json");
        headers.forEach(b::header);
        return b.build();
    }

    @Test
    void serveEnvOverHttp() throws Exception {
        try (EnvServer server = EnvServer.start(EnvServer.Config.loopback(true)); TestHttp http = new TestHttp(server.baseUrl())) {
            String session = http.post("/reset", "{}").raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow();
            List<JsonNode> steps = new ArrayList<>();
            for (JsonNode a : ACTIONS) steps.add(Json.object().set("action", a));
            steps.add(Json.parse("{\"action\":{\"answer\":\"x\"},\"timeout_s\":5,\"request_id\":\"r1\"}"));
            Fuzz.run("serve env over HTTP", 11, 250, f -> {
                boolean reset = f.nextInt(3) == 0;
                byte[] body = f.mutate(reset ? RESET : f.pick(steps));
                String id = f.nextInt(8) == 0 ? f.text(40) : session;
                TestHttp.Response r = http.send(post(server.baseUrl() + (reset ? "/reset" : "/step"), body,
                        id.isBlank() || !id.chars().allMatch(c -> c > ' ' && c < 127) ? Map.of() : Map.of(EnvServer.SESSION_HEADER, id)));
                checkHttp(r, new String(body, java.nio.charset.StandardCharsets.UTF_8));
            });
        }
    }

    @Test
    void serveEnvWebSocketMessages() throws Exception {
        try (EnvServer server = EnvServer.start(EnvServer.Config.loopback(true))) {
            UnaryOperator<String> socket = server.inProcessSession();   // exactly what /ws answers each text message with
            socket.apply("{\"type\":\"reset\",\"data\":{}}");
            List<JsonNode> messages = new ArrayList<>(List.of(Json.object().put("type", "reset").set("data", RESET), Json.parse("{\"type\":\"state\"}")));
            for (JsonNode a : ACTIONS) messages.add(Json.object().put("type", "step").set("data", a));
            Fuzz.run("serve env WebSocket messages", 12, 1500, f -> {
                String text = f.mutateText(f.pick(messages));
                String answer;
                try {
                    answer = socket.apply(text);
                } catch (IllegalArgumentException closing) {
                    assertEquals("an in-process session has no connection to close", closing.getMessage());
                    return;
                }
                JsonNode a = Json.parse(answer);
                assertTrue(List.of("observation", "state", "error").contains(a.path("type").asText()), answer);
                assertNull(Fuzz.internalText(answer), "internal text for " + abbreviate(text) + ": " + abbreviate(answer));
                if (a.path("type").asText().equals("error")) {
                    assertFalse(a.path("data").path("message").asText().isBlank(), answer);
                    assertFalse(a.path("data").path("code").asText().equals("EXECUTION_ERROR"), "a bad message is the client's error: " + answer);
                }
            });
        }
    }

    /** Records nothing: the fuzzed episodes are of no interest. */
    private static final class NoSink implements EpisodeSink {
        @Override
        public void record(FinishedEpisode episode) {}

        @Override
        public String describe() { return "nowhere"; }
    }

    private static final List<JsonNode> MCP = List.of(
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{}},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"},\"_meta\":{}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"cursor\":\"X\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"arguments\":{},"
                    + "\"_meta\":{\"progressToken\":7}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search_places\",\"arguments\":{\"city\":\"X\",\"min_rating\":4}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/get\",\"params\":{\"name\":\"task\",\"arguments\":{}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{\"uri\":\"openagent://task\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"completion/complete\",\"params\":{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"task\"},"
                    + "\"argument\":{\"name\":\"a\",\"value\":\"b\"}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3,\"reason\":\"X\"}}"));

    @Test
    void serveMcpOverHttp() throws Exception {
        var options = new McpEnvServer.Options(EnvChoice.of("poi", "none"), new TaskChoice(Split.TEST, 0, 1), 0, null, new NoSink());
        try (McpEnvServer server = McpEnvServer.http(options, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
             TestHttp http = new TestHttp(server.url())) {
            Fuzz.run("serve mcp over HTTP", 13, 400, f -> {
                byte[] body = f.mutate(f.pick(MCP));
                String sent = new String(body, java.nio.charset.StandardCharsets.UTF_8);
                TestHttp.Response r = http.send(post(server.url(), body, Map.of("Accept", "application/json, text/event-stream")));
                checkHttp(r, sent);
                JsonNode error = r.body().path("error");
                assertFalse(error.path("code").asInt() == -32603, "an internal error for " + abbreviate(sent) + ": " + r.raw().body());
            });
        }
    }

    /**
     * Over stdio (the SDK's session server behind the same check): each fuzzed line is followed by a ping, and every
     * line read up to the ping's answer must be a JSON-RPC message without an internal error or internal text.
     */
    @Test
    void serveMcpOverStdio() throws Exception {
        var options = new McpEnvServer.Options(EnvChoice.of("poi", "none"), new TaskChoice(Split.TEST, 0, 1), 0, null, new NoSink());
        // NIO pipes: a java.io pipe breaks once the thread that last wrote it ends, and the SDK writes from a pool.
        java.nio.channels.Pipe toServer = java.nio.channels.Pipe.open(), toClient = java.nio.channels.Pipe.open();
        java.io.OutputStream clientOut = java.nio.channels.Channels.newOutputStream(toServer.sink());
        java.io.InputStream clientIn = java.nio.channels.Channels.newInputStream(toClient.source());
        McpEnvServer server = McpEnvServer.stdio(options, java.nio.channels.Channels.newInputStream(toServer.source()),
                java.nio.channels.Channels.newOutputStream(toClient.sink()));
        java.io.BufferedReader reader = new java.io.BufferedReader(new java.io.InputStreamReader(clientIn, java.nio.charset.StandardCharsets.UTF_8));
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try {
                for (String l = reader.readLine(); l != null; l = reader.readLine()) lines.add(l);
            } catch (java.io.IOException e) {
                // the server closed its end: the test is over
            }
        });
        try {
            clientOut.write((Json.write(MCP.getFirst()) + "\n" + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            clientOut.flush();
            assertTrue(Json.parse(lines.poll(30, TimeUnit.SECONDS)).has("result"), "initialized");
            int[] pings = {0};
            Fuzz.run("serve mcp over stdio", 16, 300, f -> {
                String line = f.mutateText(f.pick(MCP)).replace("\n", " ").replace("\r", " ");
                String ping = "ping-" + pings[0]++;
                try {
                    clientOut.write((line + "\n{\"jsonrpc\":\"2.0\",\"id\":\"" + ping + "\",\"method\":\"ping\"}\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    clientOut.flush();
                    while (true) {
                        String answer = lines.poll(20, TimeUnit.SECONDS);
                        assertTrue(answer != null, "the server stopped answering after " + abbreviate(line));
                        JsonNode m = Json.parse(answer);
                        if (m.path("id").asText().equals(ping)) return;
                        if (m.has("method")) continue;   // a notification of the server's own (the tool list changed)
                        assertNull(Fuzz.internalText(answer), "internal text for " + abbreviate(line) + ": " + abbreviate(answer));
                        assertFalse(m.path("error").path("code").asInt() == -32603, "an internal error for " + abbreviate(line) + ": " + answer);
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        } finally {
            clientOut.close();
            server.close();
        }
    }

    @Test
    void serveModelChatCompletions() throws Exception {
        List<JsonNode> requests = List.of(
                Json.parse("{\"model\":\"random-1\",\"messages\":[{\"role\":\"system\",\"content\":\"S\"},{\"role\":\"user\",\"content\":\"X\"}],"
                        + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"find\",\"description\":\"F\",\"parameters\":{\"type\":\"object\","
                        + "\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}}}],\"temperature\":0.5,\"max_tokens\":10,"
                        + "\"tool_choice\":\"auto\",\"stream\":false,\"n\":1}"),
                Json.parse("{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"X\"}]},{\"role\":\"assistant\",\"content\":null,"
                        + "\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"find\",\"arguments\":\"{\\\"q\\\":\\\"X\\\"}\"}}]},"
                        + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"Y\"}],\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"find\"}}]}"));
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-1", new RandomAgent(1)), ModelServer.Config.loopback());
             TestHttp http = new TestHttp(server.baseUrl())) {
            Fuzz.run("serve model chat completions", 14, 400, f -> {
                byte[] body = f.mutate(f.pick(requests));
                checkHttp(http.send(post(server.baseUrl() + "/chat/completions", body, Map.of())), new String(body, java.nio.charset.StandardCharsets.UTF_8));
            });
        }
    }

    /** {@code --shift} specs from the grammar's own pieces, well and badly joined: a stack, or one clear line (IllegalArgumentException). */
    @Test
    void shiftSpecs() {
        List<String> pieces = new ArrayList<>(List.of("none", "static", "all", "tier:", "+", ";", ":", ",", "=", " ", "", "X", "-1", "99999999999",
                "é", "\t", "tier:perception", "==", "::", "++"));
        for (Tier t : Tier.values()) pieces.add(t.id());
        for (Shift s : ShiftCatalog.all()) {
            pieces.add(s.id());
            for (ShiftParam p : s.params()) {
                pieces.add(p.name());
                pieces.add(p.name() + "=" + p.defaultValue());
                pieces.addAll(p.values());
            }
        }
        Fuzz.run("--shift specs", 15, 3000, f -> {
            StringBuilder spec = new StringBuilder();
            for (int n = 1 + f.nextInt(6); n > 0; n--) spec.append(f.nextInt(5) == 0 ? f.text(6) : f.pick(pieces));
            String s = spec.toString();
            for (Runnable parse : List.<Runnable>of(() -> ShiftSpec.expand(s), () -> EnvChoice.oneStack(s), () -> EnvChoice.of("poi", s))) {
                try {
                    parse.run();
                } catch (IllegalArgumentException e) {
                    String m = e.getMessage();
                    assertTrue(m != null && !m.isBlank() && !m.contains("\n"), "one clear line for '" + s + "': " + m);
                    assertNull(Fuzz.internalText(m), "internal text for '" + s + "': " + m);
                }
            }
        });
    }
}
