package dev.openagent.server.mcp;

import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.TestHttp;
import dev.openagent.server.http.BearerAuth;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `serve mcp --port`: the official SDK client over Streamable HTTP against the stateless transport. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class McpHttpTest {
    @Test
    void officialHttpClientListsToolsAndPlaysAnEpisode() throws Exception {
        McpEpisodeHostTest.ListSink sink = new McpEpisodeHostTest.ListSink();
        // Opaque tool names, new ones per episode: a stateless client lists the tools again after an episode.
        var options = new McpEnvServer.Options(dev.openagent.server.EnvChoice.of(new Catalog(), "poi", "tool.identity-erasure"),
                McpEpisodeHostTest.TASKS, 0, null, sink);
        try (McpEnvServer server = McpEnvServer.http(options, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20)) {
            String base = server.url().substring(0, server.url().length() - "/mcp".length());
            var transport = HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build();
            try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
                client.initialize();
                List<String> served = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
                assertEquals(server.host().tools().stream().map(ToolSpec::name).toList(), served);
                McpSchema.ReadResourceResult task = client.readResource(McpSchema.ReadResourceRequest.builder("openagent://task").build());
                assertTrue(((McpSchema.TextResourceContents) task.contents().getFirst()).text().contains("User request:"));
                McpSchema.CallToolResult r = client.callTool(McpSchema.CallToolRequest.builder("submit_answer").arguments(Map.of("answer", "no idea")).build());
                assertTrue(((McpSchema.TextContent) r.content().getFirst()).text().contains("\"success\":false"));
                List<String> next = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
                assertEquals(server.host().tools().stream().map(ToolSpec::name).toList(), next);
                assertTrue(!next.equals(served), "the second episode's opaque names differ: " + served + " / " + next);
            }
            assertEquals(1, sink.episodes.size());

            try (TestHttp http = new TestHttp(base)) {
                assertEquals(405, http.get("/mcp").status());
                assertEquals(404, http.post("/other", "{}").status());
                TestHttp.Response garbage = http.post("/mcp", "{not json");
                assertEquals(400, garbage.status());
                assertEquals(-32700, garbage.body().path("error").path("code").asInt());
                var evil = java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/mcp"))
                        .header("Origin", "http://evil.example").POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build();
                assertEquals(403, http.send(evil).status());
            }
        }
    }

    record Bad(String body, int status, int code) {}

    /**
     * Malformed JSON-RPC gets the code the specification names and a short message, never a Java
     * exception's text; a request addressed to a non-loopback Host (DNS rebinding) is refused;
     * the server keeps serving.
     */
    @Test
    void malformedRequestsGetJsonRpcErrorsAndRebindingIsRefused() throws Exception {
        var options = new McpEnvServer.Options(dev.openagent.server.EnvChoice.of(new Catalog(), "poi", "none"), McpEpisodeHostTest.TASKS, 0, null,
                new McpEpisodeHostTest.ListSink());
        try (McpEnvServer server = McpEnvServer.http(options, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
             TestHttp http = new TestHttp(server.url().substring(0, server.url().length() - "/mcp".length()))) {
            List<Bad> cases = List.of(
                    new Bad("{not json", 400, -32700),
                    new Bad("", 400, -32700),
                    new Bad("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", 400, -32600),
                    new Bad("{\"id\":1,\"method\":\"ping\"}", 200, -32600),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1}", 200, -32600),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}", 200, -32600),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", 400, -32600),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":5}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"arguments\":[1]}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[1]}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/get\"}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}", 200, -32602),
                    // Params the SDK cannot read as its type: -32602 naming the field, not its -32603 with Jackson's text.
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{\"_meta\":\"x\"}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"_meta\":\"x\"}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                            + "\"capabilities\":{\"roots\":5},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}", 200, -32602),
                    new Bad("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}", 200, -32601));
            for (Bad c : cases) {
                TestHttp.Response r = http.post("/mcp", c.body());
                String what = c.body() + " -> " + r.status() + " " + r.raw().body();
                assertEquals(c.status(), r.status(), what);
                assertEquals(c.code(), r.body().path("error").path("code").asInt(), what);
                String message = r.body().path("error").path("message").asText();
                assertTrue(!message.isBlank() && message.length() < 200, what);
                assertTrue(!message.contains("Exception") && !message.contains("java.") && !message.contains("null"), "short, no exception text: " + what);
            }
            assertEquals("tools/list: params._meta does not fit the MCP schema of tools/list",
                    http.post("/mcp", cases.get(15).body()).body().path("error").path("message").asText());
            byte[] bad = {'{', '"', 'j', (byte) 0xff, '"', ':', '1', '}'};
            TestHttp.Response utf8 = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(http.base() + "/mcp"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(bad)).build());
            assertEquals(400, utf8.status());
            assertEquals(-32700, utf8.body().path("error").path("code").asInt());
            assertTrue(utf8.body().path("error").path("message").asText().contains("not valid UTF-8"), utf8.raw().body());
            // A page on a rebound name reaches 127.0.0.1 but names its own host (the JDK client will not forge Host: a socket does).
            try (java.net.Socket s = new java.net.Socket(java.net.InetAddress.getLoopbackAddress(), server.port())) {
                s.setSoTimeout(10_000);
                String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
                s.getOutputStream().write(("POST /mcp HTTP/1.1\r\nHost: evil.example:" + server.port() + "\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + ping.length() + "\r\nConnection: close\r\n\r\n" + ping).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                String reply = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(reply.startsWith("HTTP/1.1 403") && reply.contains("forbidden_host"), reply);
            }
            TestHttp.Response ping = http.post("/mcp", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}");
            assertEquals(200, ping.status(), "still serving: " + ping.raw().body());
            assertEquals(9, ping.body().path("id").asInt());
        }
    }
}
