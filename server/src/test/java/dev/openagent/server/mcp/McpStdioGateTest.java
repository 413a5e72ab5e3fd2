package dev.openagent.server.mcp;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.EnvChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `serve mcp --stdio`: malformed lines get JSON-RPC errors with short messages, and the server keeps reading. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class McpStdioGateTest {
    @Test
    @Timeout(60) // a line that stops the session leaves the reader waiting: a failure, not a hang
    void malformedLinesAreAnsweredAndLaterRequestsStillServed() throws Exception {
        PipedOutputStream clientOut = new PipedOutputStream();
        PipedInputStream serverIn = new PipedInputStream(clientOut, 1 << 16);
        PipedInputStream clientIn = new PipedInputStream(1 << 16);
        PipedOutputStream serverOut = new PipedOutputStream(clientIn);
        var options = new McpEnvServer.Options(EnvChoice.of(new Catalog(), "poi", "none"), McpEpisodeHostTest.TASKS, 0, null, new McpEpisodeHostTest.ListSink());
        McpEnvServer server = McpEnvServer.stdio(options, serverIn, serverOut);
        try {
            String[] lines = {
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
                    "{not json",
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"no/such/method\"}",
                    // An id past 64 bits made the SDK's session stop answering; logging/setLevel without params got its NullPointerException text.
                    "{\"jsonrpc\":\"2.0\",\"id\":1" + "0".repeat(40) + ",\"method\":\"ping\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"logging/setLevel\"}",
                    // A null id (MCP forbids it) made the session stop answering too (found by ServeMcpStdioFuzzTest).
                    "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"prompts/get\",\"params\":{\"name\":\"x\"}}",
                    "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"arguments\":{}}}"};
            OutputStream out = clientOut;
            for (String l : lines) out.write((l + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader reader = new BufferedReader(new InputStreamReader(clientIn, StandardCharsets.UTF_8));
            Map<String, JsonNode> byId = new HashMap<>();
            java.util.List<Integer> withoutId = new java.util.ArrayList<>();
            while (byId.size() < 7 || withoutId.size() < 3) {   // ids 1 to 6, and null
                JsonNode m = Json.parse(reader.readLine());
                if (m.get("id").isNull()) withoutId.add(m.get("error").get("code").asInt());
                byId.put(m.get("id").asText(), m);
            }
            assertTrue(byId.get("1").has("result"));
            assertEquals(-32602, byId.get("2").get("error").get("code").asInt());
            assertEquals(-32602, byId.get("3").get("error").get("code").asInt());
            assertEquals(java.util.List.of(-32700, -32600, -32600), withoutId, "the line that is not JSON, the id past 64 bits, the null id");
            assertEquals(-32601, byId.get("4").get("error").get("code").asInt());
            assertEquals(-32602, byId.get("6").get("error").get("code").asInt());
            for (JsonNode m : byId.values()) {
                if (m.has("error")) {
                    String message = m.get("error").get("message").asText();
                    assertFalse(message.contains("Exception") || message.contains("java.") || message.contains("null"), message);
                }
            }
            assertTrue(byId.get("5").get("result").get("content").get(0).get("text").asText().contains("User request:"),
                    "a valid call after the malformed ones is served");
        } finally {
            clientOut.close();
            server.close();
        }
    }
}
