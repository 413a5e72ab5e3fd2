package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.proxy.ProxySession;
import dev.openagent.run.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
        Path store = dir.resolve("runs.db");
        List<String> args = new ArrayList<>(List.of("as text", file.toString(), "--"));
        args.addAll(proxyCommand("--shift", "tool.identity-erasure+obs.format:format=xml", "--seed", "5", "--store", store.toString(), "--stdio",
                "--", FILESYSTEM.toString(), dir.toString()));
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

        // The client closed stdin: the proxy recorded the session, the call both ways, before it exited.
        try (ResultStore results = ResultStore.openExisting(store)) {
            RunInfo run = results.runs().getFirst();
            List<EpisodeResult> episodes = results.episodes(run.id());
            assertEquals(1, episodes.size());
            EpisodeResult e = episodes.getFirst();
            assertEquals(Outcome.End.UNSCORED, e.outcome().end());
            assertEquals("tool.identity-erasure+obs.format:format=xml", e.shift());
            assertEquals(5, e.key().taskSeed());
            assertEquals("openagent-proxy-test", e.agent(), "the client's name from initialize");
            List<Message> m = e.trajectory().messages();
            Message asked = m.stream().filter(x -> x.toolCalls() != null && x.toolCalls().getFirst().function().name().equals(call.path("call").asText()))
                    .findFirst().orElseThrow(() -> new AssertionError("the agent's call is recorded: " + m));
            assertTrue(asked.toolCalls().getFirst().function().arguments().contains(file.toString()), asked.toString());
            JsonNode wire = Json.parse(m.get(m.indexOf(asked) + 1).content());
            assertEquals(ProxySession.UPSTREAM_ROLE, m.get(m.indexOf(asked) + 1).role());
            assertTrue(List.of("read_text_file", "read_file").contains(wire.path("tool").asText()), wire.toString());
            assertEquals(file.toString(), wire.path("arguments").path("path").asText(), wire.toString());
            assertEquals("Deadline: 2026-12-04\n", wire.path("result").asText(), "the upstream's own result: " + wire);
            Message got = m.get(m.indexOf(asked) + 2);
            assertEquals("tool", got.role());
            assertEquals(text, got.content(), "the result as the agent got it");
        }
    }

    /** Runs the command in this JVM and returns its exit code and stderr. */
    private static String[] run(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.execute(args);
        } finally {
            System.setErr(saved);
        }
        return new String[] {"" + code, err.toString(StandardCharsets.UTF_8)};
    }

    @Test
    void anUpstreamThatDoesNotStartIsOneLine() {
        String[] r = run("proxy", "mcp", "--shift", "tool.identity-erasure", "--stdio", "--", "/nonexistent/mcp-server");
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("openagent: upstream: cannot start '/nonexistent/mcp-server': no such file"), r[1]);
        assertFalse(r[1].contains("\tat "), r[1]);
    }

    @Test
    void aShiftThatCannotApplySaysSoAtStartUp(@TempDir Path dir) {
        require();
        String[] r = run("proxy", "mcp", "--shift", "query.paraphrase", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals("2", r[0], r[1]);
        assertTrue(r[1].contains("query.paraphrase cannot apply in the proxy"), r[1]);
        String[] tier = run("proxy", "mcp", "--shift", "tier:perception", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals("2", tier[0], tier[1]);
        assertTrue(tier[1].contains("the proxy applies one stack"), tier[1]);
    }
}
