package dev.openagent.proxy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.mcp.JsonRpcCheck;
import dev.openagent.shift.ShiftSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fuzzing pass over the proxy's request handling (Jazzer, coverage-guided, a bounded number of executions): each
 * execution sends one JSON-RPC request built from the fuzzer's bytes (a known method with params of any shape, or raw
 * bytes) through the shape check the transports apply ({@link JsonRpcCheck}) and {@link ProxyProtocol#answer}, on a
 * session under a shift stack in front of a small Python MCP server. Every request gets a response with its id and a
 * result or an error whose message is one short line with no internal text; the proxy never answers -32603.
 */
class ProxyRequestFuzzTest {
    private static final String[] METHODS = {"initialize", "ping", "tools/list", "tools/call", "prompts/list", "prompts/get", "resources/list",
            "resources/read", "resources/templates/list", "resources/subscribe", "resources/unsubscribe", "completion/complete",
            "logging/setLevel", "notifications/initialized", "no/such", ""};
    private static final String[] KEYS = {"name", "arguments", "_meta", "progressToken", "cursor", "uri", "ref", "type", "argument", "value",
            "level", "protocolVersion", "clientInfo", "capabilities", "text", "context", "echo", "x"};
    private static final String[] WORDS = {"echo", "ref/prompt", "ref/resource", "info", "debug", "2025-06-18", "file:///etc/passwd", "",
            "../../x", "\u0000", "\u00e9", "{", "fn_1", "tool", "9999999999999999999999"};

    private static final Upstream UPSTREAM;
    private static final ProxySession SESSION;

    static {
        try {
            Path dir = Files.createTempDirectory("openagent-fuzz-proxy-");
            UPSTREAM = PlainUpstream.start(dir, Duration.ofSeconds(30));
            SESSION = new ProxySession(UPSTREAM, ShiftSpec.parseStack("tool.schema-noise+obs.format:format=xml"), 5);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                UPSTREAM.close();
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                } catch (IOException ignored) {
                    // a temporary folder left behind
                }
            }));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A JSON value of any shape, {@code depth} levels deep at most, drawn from the fuzzer's bytes. */
    private static JsonNode value(FuzzedDataProvider data, int depth) {
        JsonNodeFactory f = Json.MAPPER.getNodeFactory();
        return switch (data.consumeInt(0, depth <= 0 ? 4 : 6)) {
            case 0 -> f.textNode(data.consumeBoolean() ? data.pickValue(WORDS) : data.consumeString(20));
            case 1 -> f.numberNode(data.consumeLong());
            case 2 -> f.numberNode(data.consumeDouble());
            case 3 -> f.booleanNode(data.consumeBoolean());
            case 4 -> f.nullNode();
            case 5 -> {
                ArrayNode a = f.arrayNode();
                for (int i = data.consumeInt(0, 3); i > 0; i--) a.add(value(data, depth - 1));
                yield a;
            }
            default -> {
                ObjectNode o = f.objectNode();
                for (int i = data.consumeInt(0, 4); i > 0; i--) o.set(data.consumeBoolean() ? data.pickValue(KEYS) : data.consumeString(8), value(data, depth - 1));
                yield o;
            }
        };
    }

    @FuzzTest(maxExecutions = 400)
    void everyRequestGetsAShortAnswer(FuzzedDataProvider data) {
        byte[] body;
        if (data.consumeInt(0, 9) == 0) {
            body = data.consumeBytes(200);
        } else {
            ObjectNode request = Json.object().put("jsonrpc", "2.0");
            if (data.consumeBoolean()) request.put("id", data.consumeInt()); else request.put("id", data.consumeString(10));
            request.put("method", data.pickValue(METHODS));
            if (data.consumeBoolean()) {
                ObjectNode params = request.putObject("params");
                if (request.path("method").asText().equals("tools/call") && data.consumeBoolean()) {
                    params.put("name", data.pickValue(SESSION.tools().stream().map(t -> t.name()).toArray(String[]::new)));
                }
                for (int i = data.consumeInt(0, 4); i > 0; i--) params.set(data.pickValue(KEYS), value(data, 3));
            } else if (data.consumeBoolean()) {
                request.set("params", value(data, 2));
            }
            body = Json.write(request).getBytes(StandardCharsets.UTF_8);
        }
        JsonRpcCheck.Refusal refused = JsonRpcCheck.check(body);
        JsonNode response;
        if (refused != null) {
            response = refused.response();
        } else {
            JsonNode m = Json.parse(new String(body, StandardCharsets.UTF_8));
            if (m.get("id") == null || m.get("id").isNull() || !m.has("method")) return;   // a notification or a response: nothing to answer
            response = ProxyProtocol.answer(SESSION, m);
            assertNotNull(response, "only a cancelled request goes unanswered");
            assertEquals(m.get("id"), response.get("id"), response.toString());
        }
        assertTrue(response.has("result") != response.has("error"), response.toString());
        if (response.has("error")) {
            int code = response.path("error").path("code").asInt();
            String message = response.path("error").path("message").asText();
            assertFalse(code == -32603, "an internal error: " + response);
            assertTrue(!message.isEmpty() && message.length() < 300 && message.lines().count() == 1, response.toString());
            for (String internal : new String[] {"Exception", "java.", "jackson", "io.modelcontextprotocol", "McpSchema", "[Source", "REDACTED", "\tat "}) {
                assertFalse(message.contains(internal), "'" + internal + "' in: " + response);
            }
        }
    }
}
