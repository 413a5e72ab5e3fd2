package dev.openagent.proxy;

import dev.openagent.json.Json;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.mcp.ToolReply;
import dev.openagent.shift.ShiftSpec;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The proxy in front of the official filesystem server, driven by the MCP Java SDK client over Streamable HTTP. */
class ProxyServerTest {
    static final Path FILESYSTEM = Path.of("..", "examples", "mcp-servers", "node_modules", ".bin", "mcp-server-filesystem").toAbsolutePath().normalize();

    @TempDir
    Path dir;
    Upstream upstream;
    ProxyServer server;
    McpSyncClient client;

    static void requireServer() {
        boolean installed = Files.isExecutable(FILESYSTEM);
        if (System.getenv("CI") != null) assertTrue(installed, "CI=true but .ci/run did not install examples/mcp-servers");
        assumeTrue(installed, "the MCP reference servers are not installed (npm ci --prefix examples/mcp-servers)");
    }

    @BeforeEach
    void start() throws Exception {
        requireServer();
        Files.writeString(dir.resolve("project.txt"), "Deadline: 2026-12-04\n");
        upstream = new Upstream(List.of(FILESYSTEM.toString(), dir.toString()), null, Duration.ofSeconds(10), dir.resolveSibling(dir.getFileName() + "-upstream.log"));
    }

    private McpSyncClient connect(String spec, long seed) throws Exception {
        ProxySession session = new ProxySession(upstream, ShiftSpec.parseStack(spec), seed);
        server = ProxyServer.http(session, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
        String url = server.url();
        String base = url.substring(0, url.length() - "/mcp".length());
        client = McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build()).requestTimeout(Duration.ofSeconds(60)).build();
        client.initialize();
        return client;
    }

    @AfterEach
    void stop() {
        if (client != null) client.close();
        if (server != null) server.close();
        if (upstream != null) upstream.close();
    }

    private static String text(McpSchema.CallToolResult r) {
        return ((McpSchema.TextContent) r.content().getFirst()).text();
    }

    /** identity-erasure hides tool and parameter names; descriptions stay true: read_text_file is found by its description. */
    private static McpSchema.Tool readTool(List<McpSchema.Tool> tools) {
        return tools.stream().filter(t -> t.description() != null && t.description().contains("as text")).findFirst()
                .orElseThrow(() -> new AssertionError("no read_text_file among " + tools));
    }

    /** The arguments of read_text_file under whatever name its one required parameter (the path) has now. */
    private static Map<String, Object> pathArgs(McpSchema.Tool read, Path file) {
        @SuppressWarnings("unchecked")
        List<String> required = (List<String>) read.inputSchema().get("required");
        assertEquals(1, required.size(), "read_text_file requires only its path: " + read.inputSchema());
        return Map.of(required.getFirst(), file.toString());
    }

    @Test
    void opaqueNamesMapBackAndResultsComeBackAsXml() throws Exception {
        McpSyncClient c = connect("tool.identity-erasure+obs.format:format=xml", 7);
        List<McpSchema.Tool> tools = c.listTools().tools();
        assertFalse(tools.isEmpty());
        for (McpSchema.Tool t : tools) {
            assertFalse(t.name().contains("file") || t.name().contains("directory"), "an opaque name: " + t.name());
        }
        McpSchema.Tool read = readTool(tools);
        McpSchema.CallToolResult r = c.callTool(new McpSchema.CallToolRequest(read.name(), pathArgs(read, dir.resolve("project.txt"))));
        assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
        assertTrue(text(r).contains("Deadline: 2026-12-04"), text(r));
        assertTrue(text(r).strip().startsWith("<"), "XML: " + text(r));

        ProxySession.Call call = server.session().calls().getLast();
        assertEquals(read.name(), call.tool());
        assertNotNull(call.upstream());
        assertTrue(call.upstream().tool().equals("read_text_file") || call.upstream().tool().equals("read_file"), call.upstream().tool());
        assertEquals(dir.resolve("project.txt").toString(), call.upstream().args().path("path").asText());
    }

    @Test
    void anUpstreamOverStreamableHttp() throws Exception {
        // The upstream here is an unshifted proxy of the filesystem server, served over Streamable HTTP.
        try (ProxyServer plain = ProxyServer.http(new ProxySession(upstream, dev.openagent.shift.ShiftStack.NONE, 1), "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
             Upstream overHttp = new Upstream(null, plain.url(), Duration.ofSeconds(30), dir.resolveSibling(dir.getFileName() + "-http.log"))) {
            ProxySession session = new ProxySession(overHttp, ShiftSpec.parseStack("tool.identity-erasure+obs.format:format=xml"), 9);
            McpSchema.Tool read = readTool(session.tools().stream().map(t -> McpSchema.Tool.builder(t.name(), Json.MAPPER.convertValue(t.parameters(), Map.class))
                    .description(t.description()).build()).toList());
            ToolReply r = session.call(read.name(), pathArgs(read, dir.resolve("project.txt")));
            assertFalse(r.error(), r.text());
            assertTrue(r.text().strip().startsWith("<") && r.text().contains("Deadline: 2026-12-04"), r.text());
            assertTrue(List.of("read_text_file", "read_file").contains(session.calls().getLast().upstream().tool()), session.calls().getLast().toString());
        }
    }

    @Test
    void theSameSeedShowsTheSameNamesAndAnotherSeedOthers() throws Exception {
        List<String> a = new ProxySession(upstream, ShiftSpec.parseStack("tool.identity-erasure"), 1).tools().stream().map(t -> t.name()).toList();
        List<String> b = new ProxySession(upstream, ShiftSpec.parseStack("tool.identity-erasure"), 1).tools().stream().map(t -> t.name()).toList();
        List<String> other = new ProxySession(upstream, ShiftSpec.parseStack("tool.identity-erasure"), 2).tools().stream().map(t -> t.name()).toList();
        assertEquals(a, b);
        assertFalse(a.equals(other), "seeds 1 and 2 give the same names: " + a);
    }

    @Test
    void aShiftThatNeedsATaskIsRefusedAtStartUp() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ProxySession(upstream, ShiftSpec.parseStack("query.paraphrase"), 1));
        assertTrue(e.getMessage().contains("query.paraphrase") && e.getMessage().contains("no task"), e.getMessage());
        IllegalArgumentException fact = assertThrows(IllegalArgumentException.class,
                () -> new ProxySession(upstream, ShiftSpec.parseStack("tool.identity-erasure+obs.missing-values"), 1));
        assertTrue(fact.getMessage().contains("obs.missing-values") && fact.getMessage().contains("record_of"), fact.getMessage());
    }

    @Test
    void aCrashedUpstreamIsAnMcpErrorAndTheNextCallRestartsIt() throws Exception {
        McpSyncClient c = connect("tool.identity-erasure", 3);
        McpSchema.Tool tool = readTool(c.listTools().tools());
        String read = tool.name();
        Map<String, Object> args = pathArgs(tool, dir.resolve("project.txt"));
        assertTrue(text(c.callTool(new McpSchema.CallToolRequest(read, args))).contains("2026-12-04"));
        List<ProcessHandle> servers = ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains(dir.toString())).toList();
        assertFalse(servers.isEmpty(), "the upstream process");
        servers.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : servers) p.onExit().get();
        McpError failed = assertThrows(McpError.class, () -> c.callTool(new McpSchema.CallToolRequest(read, args)));
        assertEquals(ProxyServer.UPSTREAM_FAILED, failed.getJsonRpcError().code());
        assertTrue(failed.getMessage().contains("upstream MCP server failed"), failed.getMessage());
        McpSchema.CallToolResult again = c.callTool(new McpSchema.CallToolRequest(read, args));
        assertTrue(text(again).contains("2026-12-04"), text(again));
        assertEquals(2, upstream.starts());
    }
}
