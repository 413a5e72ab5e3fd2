package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code openagent proxy mcp} in front of the official filesystem server, driven by the official TypeScript MCP client. */
class ProxyMcpCommandTest {
    static final Path FILESYSTEM = Path.of("..", "examples", "mcp-servers", "node_modules", ".bin", "mcp-server-filesystem").toAbsolutePath().normalize();

    static void require() {
        boolean ready = Files.isExecutable(FILESYSTEM) && NodeClientsTest.nodeRuns() && Files.isDirectory(NodeClientsTest.NODE_DIR.resolve("node_modules"));
        if ("true".equals(System.getenv("CI"))) assertTrue(ready, "CI needs the reference servers and the npm clients (.ci/run installs them)");
        assumeTrue(ready, "node, the npm clients or the reference servers are not installed: skipping");
    }

    static List<String> proxyCommand(String... args) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                "dev.openagent.cli.Main", "proxy", "mcp"));
        cmd.addAll(List.of(args));
        return cmd;
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theTypeScriptClientSeesOpaqueNamesAndGetsTheRealFileAsXml(@TempDir Path dir) throws Exception {
        require();
        Path file = dir.resolve("project.txt");
        Files.writeString(file, "Deadline: 2026-12-04\n");
        List<String> args = new ArrayList<>(List.of("as text", file.toString(), "--"));
        args.addAll(proxyCommand("--shift", "tool.identity-erasure+obs.format:format=xml", "--seed", "5", "--stdio", "--", FILESYSTEM.toString(), dir.toString()));
        List<JsonNode> lines = NodeClientsTest.node("proxy-client.mjs", args.toArray(String[]::new));

        assertEquals("openagent-proxy", lines.get(0).path("server").path("name").asText(), lines.get(0).toString());
        JsonNode tools = lines.get(1).path("tools");
        assertTrue(tools.size() >= 10, tools.toString());
        for (JsonNode t : tools) {
            String name = t.path("name").asText();
            assertFalse(name.contains("file") || name.contains("director") || name.contains("read"), "an opaque name: " + name);
        }
        JsonNode call = lines.get(2);
        assertFalse(call.path("isError").asBoolean(), call.toString());
        String text = call.path("text").asText();
        assertTrue(text.strip().startsWith("<") && text.contains("Deadline: 2026-12-04"), "the real file as XML: " + text);
        JsonNode unknown = lines.get(3);
        assertEquals(-32602, unknown.path("code").asInt(), "an unknown tool is a JSON-RPC invalid-params error: " + unknown);
        assertEquals("true", lines.getLast().path("done").asText());
    }

    @Test
    void anUpstreamThatDoesNotStartIsOneLine() {
        CliTest.Result r = CliTest.run("proxy", "mcp", "--shift", "tool.identity-erasure", "--stdio", "--", "/nonexistent/mcp-server");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("openagent: upstream: cannot start '/nonexistent/mcp-server': no such file"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void aShiftThatCannotApplySaysSoAtStartUp(@TempDir Path dir) {
        require();
        CliTest.Result r = CliTest.run("proxy", "mcp", "--shift", "query.paraphrase", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("query.paraphrase cannot apply in the proxy"), r.err());
        CliTest.Result tier = CliTest.run("proxy", "mcp", "--shift", "tier:perception", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals(2, tier.code(), tier.err());
        assertTrue(tier.err().contains("the proxy applies one stack"), tier.err());
    }
}
