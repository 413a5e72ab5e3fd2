package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.env.EnvServer;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `serve env` and `serve mcp` with an environment file (inline tools: no MCP server needed). */
class ServeFileEnvTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void serveEnvTellsABadShiftFromAnUnknownEnvironmentForAFileEnvironment() throws Exception {
        try (Catalog catalog = new Catalog();
             EnvServer server = EnvServer.start(EnvServer.Config.loopback(false).withCatalog(catalog)); HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            String id = Options.Env.resolve(catalog, InlineEnvFile.write(dir, "served-codes", InlineEnvFile.SOLVABLE).toString(), null).id();
            JsonNode ok = reset(http, server, "{\"env\":\"" + id + "\",\"split\":\"test\"}", 200);
            assertTrue(ok.toString().contains("What is product A1 called?"), ok.toString());
            String metadata = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metadata")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metadata.contains("| " + id + " |"), "the loaded environment is in the metadata's table: " + metadata);
            assertEquals("invalid_shift", code(reset(http, server, "{\"env\":\"" + id + "\",\"shift\":\"no.such-shift\"}", 400)));
            JsonNode inapplicable = reset(http, server, "{\"env\":\"" + id + "\",\"shift\":\"domain.policy-update\"}", 400);
            assertEquals("invalid_shift", code(inapplicable), inapplicable.toString());
            assertTrue(inapplicable.toString().contains("person_name"), inapplicable.toString());
            assertEquals("unknown_env", code(reset(http, server, "{\"env\":\"no-such-env\",\"shift\":\"no.such-shift\"}", 400)));
        }
    }

    /**
     * A file whose tasks are all test tasks is refused at start-up on the train split serve env defaults to (every
     * reset would fail), in one line naming the split it has; serve mcp likewise on a split the file lacks.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSplitTheFileHasNoTaskOfIsRefusedAtStartUp() throws Exception {
        String env = InlineEnvFile.write(dir.resolve("only-test"), "only-test-codes", InlineEnvFile.SOLVABLE).toString();
        ServeCliTest.refused("only-test-codes has no train task (its file has 1 test): pass --split test", "serve", "env", "--port", "0", "--env", env);
        ServeCliTest.refused("only-test-codes has no train task (its file has 1 test): pass --split test",
                "serve", "mcp", "--env", env, "--split", "train", "--stdio");
    }

    private static JsonNode reset(HttpClient http, EnvServer server, String body, int status) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/reset"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(status, r.statusCode(), body + " -> " + r.body());
        return Json.parse(r.body());
    }

    private static String code(JsonNode error) {
        return error.path("error").path("code").asText(error.toString());
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void serveMcpServesAFileEnvironmentsToolsAndSolvesItsTask() throws Exception {
        Path env = InlineEnvFile.write(dir.resolve("env"), "mcp-codes", InlineEnvFile.SOLVABLE);
        List<String> cmd = List.of(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                "dev.openagent.cli.Main", "serve", "mcp", "--env", env.toString(), "--split", "test", "--out", dir.resolve("out").toString(), "--stdio");
        ServerParameters params = ServerParameters.builder(cmd.getFirst()).args(cmd.subList(1, cmd.size())).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(90)).build()) {
            client.initialize();
            List<String> names = client.listTools().tools().stream().map(McpSchema.Tool::name).toList();
            assertTrue(names.containsAll(List.of("lookup", "get_task", "submit_answer", "refuse")), names.toString());
            assertTrue(text(call(client, "get_task", Map.of())).contains("What is product A1 called?"));
            McpSchema.CallToolResult looked = call(client, "lookup", Map.of("code", "A1"));
            assertFalse(looked.isError(), text(looked));
            assertTrue(text(looked).contains("Alpha"), text(looked));
            McpSchema.CallToolResult wrong = call(client, "lookup", Map.of("code", "Z9"));
            assertTrue(wrong.isError() && text(wrong).contains("no product with code Z9"), text(wrong));
            String done = text(call(client, "submit_answer", Map.of("answer", "Alpha")));
            assertTrue(done.contains("\"success\":true"), done);
        }
        transport.awaitForExit();
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }

    private static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        for (McpSchema.Content c : r.content()) if (c instanceof McpSchema.TextContent t) sb.append(t.text());
        return sb.toString();
    }
}
