package dev.openagent.server.mcp;

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
        var options = new McpEnvServer.Options(dev.openagent.server.EnvChoice.of("poi", "tool.identity-erasure"),
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
}
