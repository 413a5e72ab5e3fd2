package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.proxy.ProxySession;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
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

    /** A directory with a one-line project file for the client to read, and where the proxy's run store goes. */
    private record Project(Path file, Path store) {
        static Project in(Path dir) throws IOException {
            Path file = dir.resolve("project.txt");
            Files.writeString(file, "Deadline: 2026-12-04\n");
            return new Project(file, dir.resolve("runs.db"));
        }
    }

    /** Every listed tool's name hides what it does (the identity-erasure shift). */
    private static void assertOpaqueNames(JsonNode tools) {
        for (JsonNode t : tools) {
            String name = t.path("name").asText();
            assertFalse(name.contains("file") || name.contains("director") || name.contains("read"), "an opaque name: " + name);
        }
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
        Project project = Project.in(dir);
        List<String> args = new ArrayList<>(List.of("as text", project.file().toString(), "--"));
        args.addAll(proxyCommand("--shift", "tool.identity-erasure+obs.format:format=xml", "--seed", "5", "--store", project.store().toString(), "--stdio",
                "--", FILESYSTEM.toString(), dir.toString()));
        List<JsonNode> lines = NodeClientsTest.node("proxy-client.mjs", args.toArray(String[]::new));

        assertEquals("openagent-proxy", lines.get(0).path("server").path("name").asText(), lines.get(0).toString());
        JsonNode tools = lines.get(1).path("tools");
        assertTrue(tools.size() >= 10, tools.toString());
        assertOpaqueNames(tools);
        JsonNode call = lines.get(2);
        assertFalse(call.path("isError").asBoolean(), call.toString());
        String text = call.path("text").asText();
        assertTrue(text.strip().startsWith("<") && text.contains("Deadline: 2026-12-04"), "the real file as XML: " + text);
        JsonNode unknown = lines.get(3);
        assertEquals(-32602, unknown.path("code").asInt(), "an unknown tool is a JSON-RPC invalid-params error: " + unknown);
        assertEquals("true", lines.getLast().path("done").asText());

        // The client closed stdin: the proxy recorded the session, the call both ways, before it exited.
        try (ResultStore results = ResultStore.openExisting(project.store())) {
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
            assertTrue(asked.toolCalls().getFirst().function().arguments().contains(project.file().toString()), asked.toString());
            JsonNode wire = Json.parse(m.get(m.indexOf(asked) + 1).content());
            assertEquals(ProxySession.UPSTREAM_ROLE, m.get(m.indexOf(asked) + 1).role());
            assertTrue(List.of("read_text_file", "read_file").contains(wire.path("tool").asText()), wire.toString());
            assertEquals(project.file().toString(), wire.path("arguments").path("path").asText(), wire.toString());
            assertEquals("Deadline: 2026-12-04\n", wire.path("result").asText(), "the upstream's own result: " + wire);
            Message got = m.get(m.indexOf(asked) + 2);
            assertEquals("tool", got.role());
            assertEquals(text, got.content(), "the result as the agent got it");
        }
    }

    /** A proxy process serving HTTP on a free port: started, its URL read from its first stdout line. */
    private record Served(Process process, String url) implements AutoCloseable {
        static Served start(Path dir, String name, String... args) throws Exception {
            Process p = new ProcessBuilder(proxyCommand(args)).redirectError(dir.resolve(name + ".err").toFile()).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertTrue(line != null && line.startsWith("proxy mcp listening on "), "the proxy started: " + line + "\n" + Files.readString(dir.resolve(name + ".err")));
            return new Served(p, line.substring("proxy mcp listening on ".length()).strip());
        }

        /** SIGTERM, as a service manager stops it; returns the exit code. */
        int stop() throws InterruptedException {
            process.destroy();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the proxy exits on SIGTERM");
            return process.exitValue();
        }

        @Override
        public void close() {
            if (process.isAlive()) process.destroyForcibly();
        }
    }

    /**
     * The TypeScript client over Streamable HTTP to a proxy whose upstream is reached over Streamable HTTP too (an
     * unshifted proxy of the filesystem server); SIGTERM ends the session and records it.
     */
    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void overStreamableHttpBothSidesAndRecordedOnSigterm(@TempDir Path dir) throws Exception {
        require();
        Project project = Project.in(dir);
        try (Served plain = Served.start(dir, "plain", "--shift", "none", "--port", "0", "--", FILESYSTEM.toString(), dir.toString());
             Served shifted = Served.start(dir, "shifted", "--shift", "tool.identity-erasure+obs.format:format=xml", "--seed", "5", "--store", project.store().toString(),
                     "--port", "0", "--upstream", plain.url())) {
            List<JsonNode> lines = NodeClientsTest.node("proxy-client.mjs", "as text", project.file().toString(), "--url", shifted.url());
            assertEquals("openagent-proxy", lines.get(0).path("server").path("name").asText(), lines.get(0).toString());
            assertOpaqueNames(lines.get(1).path("tools"));
            String text = lines.get(2).path("text").asText();
            assertTrue(text.strip().startsWith("<") && text.contains("Deadline: 2026-12-04"), "the real file as XML: " + text);
            assertEquals(-32602, lines.get(3).path("code").asInt(), lines.get(3).toString());
            // 143 = 128 + SIGTERM: the JVM's exit after its shutdown hook (which recorded the session, below) ran.
            assertEquals(143, shifted.stop(), "the exit status after SIGTERM");
            List<ProcessHandle> upstreamServer = plain.process().descendants().toList();
            assertFalse(upstreamServer.isEmpty(), "the plain proxy runs the filesystem server");
            assertEquals(143, plain.stop());
            for (ProcessHandle h : upstreamServer) {
                h.onExit().get(30, TimeUnit.SECONDS);   // the proxy stopped its upstream
            }
        }
        try (ResultStore results = ResultStore.openExisting(project.store())) {
            List<EpisodeResult> episodes = results.episodes(results.runs().getFirst().id());
            assertEquals(1, episodes.size(), "the client's session, recorded on SIGTERM");
            List<Message> m = episodes.getFirst().trajectory().messages();
            JsonNode wire = Json.parse(m.stream().filter(x -> x.role().equals(ProxySession.UPSTREAM_ROLE) && x.content().contains("Deadline")).findFirst()
                    .orElseThrow(() -> new AssertionError("the call as the upstream received it: " + m)).content());
            assertEquals(project.file().toString(), wire.path("arguments").path("path").asText(), wire.toString());
        }
    }

    static final Path EVERYTHING = FILESYSTEM.resolveSibling("mcp-server-everything");

    /** Prompts, resources, their errors, logging and progress pass through the proxy unchanged (server-everything over stdio). */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void whatIsNotShiftedPassesUnchanged(@TempDir Path dir) throws Exception {
        require();
        List<String> args = new ArrayList<>(List.of("--"));
        args.addAll(proxyCommand("--shift", "tool.identity-erasure", "--seed", "3", "--stdio", "--", EVERYTHING.toString(), "stdio"));
        assertForwarded(NodeClientsTest.node("proxy-forward.mjs", args.toArray(String[]::new)));
    }

    /** The same over Streamable HTTP: a tool call's progress and logging come as events of its response stream. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void whatIsNotShiftedPassesUnchangedOverHttp(@TempDir Path dir) throws Exception {
        require();
        try (Served proxy = Served.start(dir, "proxy", "--shift", "tool.identity-erasure", "--seed", "3", "--port", "0", "--", EVERYTHING.toString(), "stdio")) {
            assertForwarded(NodeClientsTest.node("proxy-forward.mjs", "--url", proxy.url()));
        }
    }

    private static void assertForwarded(List<JsonNode> lines) {
        JsonNode caps = lines.get(0).path("capabilities");
        assertTrue(caps.has("prompts") && caps.has("resources") && caps.has("logging"), caps.toString());
        assertTrue(lines.get(1).path("prompts").toString().contains("args-prompt"), lines.get(1).toString());
        assertTrue(lines.get(2).path("prompt").asText().contains("Lisbon"), lines.get(2).toString());
        assertTrue(lines.get(3).path("resources").size() > 0, lines.get(3).toString());
        assertFalse(lines.get(4).path("contents").asText().isEmpty(), lines.get(4).toString());
        assertTrue(lines.get(5).path("templates").size() > 0, lines.get(5).toString());
        assertTrue(lines.get(6).path("badPrompt").asBoolean() && lines.get(6).path("code").asInt() != -32000, "the upstream's own error: " + lines.get(6));
        JsonNode call = lines.get(7);
        assertFalse(call.path("isError").asBoolean(), call.toString());
        assertTrue(call.path("progress").asInt() >= 1, "progress notifications reach the client: " + call);
        assertTrue(lines.get(8).path("logs").asInt() >= 1, "logging notifications reach the client: " + lines.get(8));
        assertEquals("true", lines.getLast().path("done").asText());
    }

    /** --port is the proxy's own: its sessions are stateful (serve mcp's --port serves stateless HTTP). */
    @Test
    void thePortHelpSaysSessions() {
        CliTest.Result r = CliTest.run("proxy", "mcp", "--help");
        assertEquals(0, r.code(), r.err());
        String help = r.out().replaceAll("\\s+", " ");
        assertTrue(help.contains("a session per client"), help);
        assertFalse(help.contains("stateless"), help);
    }

    @Test
    void anUpstreamThatDoesNotStartIsOneLine() {
        CliTest.Result r = CliTest.run("proxy", "mcp", "--shift", "tool.identity-erasure", "--stdio", "--", "/nonexistent/mcp-server");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("openagent: upstream: cannot start '/nonexistent/mcp-server': no such file"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    /** A program that prints something else and exits: noticed by its exit, not after the start-up wait. */
    @Test
    @Timeout(value = 45, unit = TimeUnit.SECONDS)
    void anUpstreamThatIsNotAnMcpServerIsOneLine() {
        CliTest.Result r = CliTest.run("proxy", "mcp", "--shift", "tool.identity-erasure", "--stdio", "--", "/bin/echo", "hello, I am not an MCP server");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("openagent: upstream: MCP server '/bin/echo hello, I am not an MCP server' did not start: the process exited"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
    }

    @Test
    void aShiftThatCannotApplySaysSoAtStartUp(@TempDir Path dir) {
        require();
        CliTest.Result r = CliTest.run("proxy", "mcp", "--shift", "query.paraphrase", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("query.paraphrase cannot apply in the proxy"), r.err());
        CliTest.Result none = CliTest.run("proxy", "mcp", "--shift", "query.paraphrase;query.noise", "--stdio", "--", FILESYSTEM.toString(), dir.toString());
        assertEquals(2, none.code(), none.err());
        assertTrue(none.err().contains("none of the 2 conditions can apply in the proxy"), none.err());
    }

    static final Path LIVE_UPSTREAM = NodeClientsTest.NODE_DIR.resolve("proxy-upstream.mjs").toAbsolutePath().normalize();

    /**
     * What happens live between a client and the upstream, through the TypeScript client (proxy-live.mjs) and a
     * TypeScript upstream (proxy-upstream.mjs): a log message after its call, a tool added (the list rebuilt under
     * the shift, the client told), a cancelled call (the upstream told), and the upstream killed mid-session (that
     * call an MCP error, the next one answered by a restarted upstream).
     */
    private static void assertLive(List<JsonNode> lines) {
        JsonNode between = lines.get(0);
        assertTrue(between.path("between").asBoolean(), "a log message sent after its call returned reaches the client: " + between);
        JsonNode changed = lines.get(1);
        assertTrue(changed.path("listChanged").asBoolean(), "the client is told the tools changed: " + changed);
        String fresh = changed.path("fresh").asText();
        assertTrue(!fresh.isEmpty() && !fresh.contains("fresh"), "the added tool is listed, under an opaque name: " + changed);
        // The tool's answer names it as the client knows it (a result never shows a name the shift hid).
        assertEquals(fresh + " ran", changed.path("freshRuns").asText(), changed.toString());
        assertEquals(changed.path("before").asInt(), changed.path("kept").asInt(), "a tool added at the end leaves the others' names: " + changed);
        assertTrue(lines.get(2).path("cancelledCall").asText().startsWith("rejected"), lines.get(2).toString());
        assertEquals(1, lines.get(3).path("upstreamSawCancel").size(), "the upstream received notifications/cancelled for its request: " + lines.get(3));
        JsonNode killed = lines.get(4);
        assertEquals("error", killed.path("killed").asText(), "the call after the kill is an MCP error: " + killed);
        assertEquals(-32000, killed.path("code").asInt(), killed.toString());
        JsonNode restarted = lines.get(5);
        assertEquals("after the restart", restarted.path("restarted").asText(), restarted.toString());
        assertFalse(restarted.path("pidNow").asText().equals(restarted.path("pidBefore").asText()), "a new upstream process: " + restarted);
        assertEquals("true", lines.getLast().path("done").asText());
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void liveNotificationsListChangesCancellationAndRestartOverStdio() throws Exception {
        require();
        List<String> args = new ArrayList<>(List.of("--"));
        args.addAll(proxyCommand("--shift", "tool.identity-erasure", "--seed", "3", "--stdio", "--", "node", LIVE_UPSTREAM.toString()));
        assertLive(NodeClientsTest.node("proxy-live.mjs", args.toArray(String[]::new)));
    }

    /** The same over Streamable HTTP: notifications between calls come on the client's GET stream. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void liveNotificationsListChangesCancellationAndRestartOverHttp(@TempDir Path dir) throws Exception {
        require();
        try (Served proxy = Served.start(dir, "live", "--shift", "tool.identity-erasure", "--seed", "3", "--port", "0", "--", "node", LIVE_UPSTREAM.toString())) {
            assertLive(NodeClientsTest.node("proxy-live.mjs", "--url", proxy.url()));
            assertEquals(143, proxy.stop());
        }
    }

    /**
     * SIGTERM while a tool call waits on the upstream (which would wait ten minutes, the --timeout longer): the
     * proxy cancels it after a short grace, records it as cancelled, and exits.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aCallInFlightAtSigtermIsRecordedCancelled(@TempDir Path dir) throws Exception {
        require();
        Path store = dir.resolve("runs.db");
        Path started = dir.resolve("started");
        try (Served proxy = Served.start(dir, "sigterm", "--shift", "none", "--port", "0", "--timeout", "900", "--store", store.toString(),
                "--", "node", LIVE_UPSTREAM.toString())) {
            io.modelcontextprotocol.client.McpSyncClient client = io.modelcontextprotocol.client.McpClient.sync(
                    io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport.builder(proxy.url().replace("/mcp", "")).endpoint("/mcp").build())
                    .requestTimeout(java.time.Duration.ofMinutes(15)).build();
            client.initialize();
            Thread call = Thread.ofVirtual().start(() -> {
                try {
                    client.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("slow", java.util.Map.of("started", started.toString())));
                } catch (RuntimeException expected) {
                    // the proxy stops under it
                }
            });
            while (!Files.exists(started)) Thread.sleep(50);
            assertEquals(143, proxy.stop(), "the proxy exits on SIGTERM with the call in flight");
            call.interrupt();
            client.closeGracefully();
        }
        try (ResultStore results = ResultStore.openExisting(store)) {
            List<Message> m = results.episodes(results.runs().getFirst().id()).getFirst().trajectory().messages();
            Message got = m.stream().filter(x -> x.role().equals("tool") && "slow".equals(x.name())).findFirst()
                    .orElseThrow(() -> new AssertionError("the call in flight is recorded: " + m));
            assertTrue(got.content().contains("cancelled") && got.content().contains("the proxy is stopping"), got.toString());
        }
    }
}
