package dev.openagent.proxy;

import dev.openagent.json.Json;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.shift.ShiftSpec;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.results.EpisodeResult;
import dev.openagent.shift.ShiftStack;
import dev.openagent.sandbox.Outcome;
import dev.openagent.store.ResultStore;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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
    SessionPool pool;
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
        upstream = new Upstream(List.of(FILESYSTEM.toString(), dir.toString()), null, Duration.ofSeconds(120), dir.resolveSibling(dir.getFileName() + "-upstream.log"));
    }

    private McpSyncClient connect(String spec, long seed) throws Exception {
        return connect(spec, seed, null);
    }

    private McpSyncClient connect(String spec, long seed, SessionRecorder recorder) throws Exception {
        pool = new SessionPool(upstream, ShiftSpec.parseStack(spec), seed, 2, Duration.ofMinutes(5), recorder);
        server = ProxyServer.http(pool, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
        client = client(server.url());
        return client;
    }

    static McpSyncClient client(String url) {
        String base = url.substring(0, url.length() - "/mcp".length());
        McpSyncClient c = McpClient.sync(HttpClientStreamableHttpTransport.builder(base).endpoint("/mcp").build()).requestTimeout(Duration.ofSeconds(60)).build();
        c.initialize();
        return c;
    }

    @AfterEach
    void stop() {
        if (client != null) client.close();
        if (server != null) server.close();
        if (pool != null) pool.close();
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
        try (SessionPool plainSessions = new SessionPool(upstream, dev.openagent.shift.ShiftStack.NONE, 1, 2, Duration.ofMinutes(5), null);
             ProxyServer plain = ProxyServer.http(plainSessions, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
             Upstream overHttp = new Upstream(null, plain.url(), Duration.ofSeconds(30), dir.resolveSibling(dir.getFileName() + "-http.log"))) {
            ProxySession session = new ProxySession(overHttp, ShiftSpec.parseStack("tool.identity-erasure+obs.format:format=xml"), 9);
            McpSchema.Tool read = readTool(session.tools().stream().map(t -> McpSchema.Tool.builder(t.name(), Json.MAPPER.convertValue(t.parameters(), Map.class))
                    .description(t.description()).build()).toList());
            ProxySession.Reply r = session.call(read.name(), pathArgs(read, dir.resolve("project.txt")));
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

    /**
     * The upstream's timeout is two minutes and the test's one: the killed server is noticed by its exit, not by a
     * request that never gets an answer.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
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

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void eachHttpClientHasItsOwnSessionSeedAndRecording() throws Exception {
        Path db = dir.resolveSibling(dir.getFileName() + "-runs.db");
        SessionRecorder recorder = SessionRecorder.toStore(ResultStore.open(db), upstream.describe(), ShiftSpec.parseStack("tool.identity-erasure"));
        McpSyncClient first = connect("tool.identity-erasure", 11, recorder);
        McpSyncClient second = client(server.url());
        try {
            List<McpSchema.Tool> a = first.listTools().tools();
            List<McpSchema.Tool> b = second.listTools().tools();
            assertFalse(a.stream().map(McpSchema.Tool::name).toList().equals(b.stream().map(McpSchema.Tool::name).toList()),
                    "two sessions, two seeds, two sets of names: " + a.stream().map(McpSchema.Tool::name).toList());
            McpSchema.Tool read = readTool(b);
            assertTrue(text(second.callTool(new McpSchema.CallToolRequest(read.name(), pathArgs(read, dir.resolve("project.txt"))))).contains("2026-12-04"));
            // Each session knows only its own names.
            McpError foreign = assertThrows(McpError.class, () -> first.callTool(new McpSchema.CallToolRequest(read.name(), pathArgs(read, dir.resolve("project.txt")))));
            assertEquals(-32602, foreign.getJsonRpcError().code());
            assertEquals(2, pool.sessions().size());
            // The pool holds two: a third client is told so.
            McpSyncClient third = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url().replace("/mcp", "")).build())
                    .requestTimeout(Duration.ofSeconds(30)).build();
            RuntimeException full = assertThrows(RuntimeException.class, third::initialize);
            assertTrue(String.valueOf(full.getMessage()).contains("at most 2 sessions") || String.valueOf(full.getCause()).contains("at most 2 sessions"), full.toString());
        } finally {
            second.close();
        }
        server.close();
        pool.close();
        recorder.close();
        try (ResultStore store = ResultStore.openExisting(db)) {
            List<EpisodeResult> episodes = store.episodes(store.runs().getFirst().id());
            assertEquals(2, episodes.size(), episodes.toString());
            assertEquals(2, episodes.stream().map(e -> e.key().taskSeed()).distinct().count(), "a seed per session");
            assertTrue(episodes.stream().anyMatch(e -> e.key().taskSeed() == 11), "the first session runs on --seed");
            EpisodeResult withCalls = episodes.stream().filter(e -> e.stats().toolCalls() == 1 && e.stats().toolErrors() == 0).findFirst().orElseThrow();
            assertEquals("tool.identity-erasure", withCalls.shift());
            assertTrue(withCalls.trajectory().messages().stream().anyMatch(m -> m.role().equals(ProxySession.UPSTREAM_ROLE) && m.content().contains("read_")),
                    withCalls.trajectory().messages().toString());
            EpisodeResult withUnknown = episodes.stream().filter(e -> e.stats().errorCodes().containsKey("UNKNOWN_TOOL")).findFirst().orElseThrow();
            assertEquals(Outcome.End.UNSCORED, withUnknown.outcome().end());
        }
    }

    /** Raw JSON-RPC over HTTP: each malformed request gets its code and a short message, and the proxy keeps serving. */
    @Test
    void malformedRequestsGetJsonRpcErrors() throws Exception {
        connect("tool.identity-erasure", 4);
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> init = post(http, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        String session = init.headers().firstValue(ProxyServer.SESSION_HEADER).orElseThrow();
        Map<String, Integer> expected = Map.of(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}", -32602,
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":7}}", -32602,
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":{}}}", -32602,
                "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"nope\",\"arguments\":[1]}}", -32602,
                "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"no/such/method\"}", -32601,
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{}}", -32602,
                "{not json", -32700);
        for (var e : expected.entrySet()) {
            JsonNode r = Json.parse(post(http, session, e.getKey()).body());
            assertEquals(e.getValue().intValue(), r.path("error").path("code").asInt(), e.getKey() + " -> " + r);
            String message = r.path("error").path("message").asText();
            assertTrue(!message.isEmpty() && message.length() < 200 && !message.contains("Exception") && !message.contains("\tat "), message);
        }
        JsonNode tools = Json.parse(post(http, session, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}").body());
        assertTrue(tools.path("result").path("tools").size() > 5, "still serving: " + tools);
        assertEquals(404, post(http, "no-such-session", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}").statusCode());
    }

    /** The session's GET event stream needs its session and an event-stream Accept header; other methods are refused. */
    @Test
    void theGetStreamIsRefusedWithoutItsSession() throws Exception {
        connect("tool.identity-erasure", 4);
        HttpClient http = HttpClient.newHttpClient();
        assertEquals(400, get(http, null, "text/event-stream").statusCode());
        assertEquals(404, get(http, "no-such-session", "text/event-stream").statusCode());
        assertEquals(406, get(http, "no-such-session", "application/json").statusCode());
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(server.url())).PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, put.statusCode());
    }

    private HttpResponse<String> get(HttpClient http, String session, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url())).header("Accept", accept).GET();
        if (session != null) b.header(ProxyServer.SESSION_HEADER, session);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A tool call the client cancels over HTTP (answered as JSON): its POST is accepted without a response, the
     * upstream's request is cancelled (so the call ends long before the upstream's ten minutes), and it is recorded.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCancelledCallOverHttpGetsNoResponse() throws Exception {
        useEverything(Duration.ofMinutes(10), "cancel");
        connect("obs.format:format=xml", 1);   // names unchanged
        java.util.concurrent.CountDownLatch running = firstProgress();
        HttpClient http = HttpClient.newHttpClient();
        String session = post(http, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}").headers().firstValue(ProxyServer.SESSION_HEADER).orElseThrow();
        java.util.concurrent.CompletableFuture<HttpResponse<String>> slow = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return post(http, session, "{\"jsonrpc\":\"2.0\",\"id\":\"slow-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"trigger-long-running-operation\","
                        + "\"arguments\":{\"duration\":600,\"steps\":600},\"_meta\":{\"progressToken\":\"p1\"}}}");
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        running.await();
        assertEquals(202, post(http, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"slow-1\",\"reason\":\"enough\"}}").statusCode());
        HttpResponse<String> answered = slow.get();
        assertEquals(202, answered.statusCode(), "accepted, without the response: " + answered.body());
        assertEquals("", answered.body());
        // The raw client's session (the SDK client that connect() opened has one of its own, without calls).
        ProxySession.Call call = pool.sessions().stream().flatMap(x -> x.calls().stream()).findFirst().orElseThrow();
        assertEquals(ProxySession.CANCELLED, call.reply().code(), call.toString());
        assertTrue(call.reply().text().contains("enough"), call.reply().text());
        assertEquals(1, upstream.starts(), "a cancelled call does not restart the upstream");
    }

    private HttpResponse<String> post(HttpClient http, String session, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.url())).header("Content-Type", "application/json")
                .header("Accept", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));   // JSON answers, not an event stream
        if (session != null) b.header(ProxyServer.SESSION_HEADER, session);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static final Path EVERYTHING = FILESYSTEM.resolveSibling("mcp-server-everything");

    /** The upstream becomes server-everything (its prompts, resources and slow tool), waiting at most {@code timeout}. */
    private void useEverything(Duration timeout, String log) {
        assumeTrue(Files.isExecutable(EVERYTHING) || System.getenv("CI") != null, "server-everything is not installed");
        upstream.close();
        upstream = new Upstream(List.of(EVERYTHING.toString(), "stdio"), null, timeout, dir.resolveSibling(dir.getFileName() + "-" + log + ".log"));
    }

    /** Counts down at the upstream's first progress notification: the slow call is running. */
    private java.util.concurrent.CountDownLatch firstProgress() {
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        upstream.onNotification(n -> {
            if (n.method().equals("notifications/progress")) running.countDown();
        });
        return running;
    }

    /** server-everything's prompts and resources reach the client unchanged through the proxy, and its errors too. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void promptsAndResourcesPassUnchanged() throws Exception {
        useEverything(Duration.ofSeconds(60), "everything");
        McpSyncClient c = connect("tool.identity-erasure", 2);
        assertNotNull(c.getServerCapabilities().prompts(), "the upstream's prompt capability is passed on");
        List<String> prompts = c.listPrompts().prompts().stream().map(McpSchema.Prompt::name).toList();
        assertTrue(prompts.contains("args-prompt"), prompts.toString());
        McpSchema.GetPromptResult prompt = c.getPrompt(new McpSchema.GetPromptRequest("args-prompt", Map.of("city", "Lisbon", "state", "Portugal")));
        assertTrue(((McpSchema.TextContent) prompt.messages().getFirst().content()).text().contains("Lisbon"), prompt.toString());
        List<McpSchema.Resource> resources = c.listResources().resources();
        assertFalse(resources.isEmpty());
        McpSchema.ReadResourceResult read = c.readResource(new McpSchema.ReadResourceRequest(resources.getFirst().uri()));
        assertEquals(resources.getFirst().uri(), read.contents().getFirst().uri());
        assertFalse(c.listResourceTemplates().resourceTemplates().isEmpty());
        McpError missing = assertThrows(McpError.class, () -> c.getPrompt(new McpSchema.GetPromptRequest("no-such-prompt", Map.of())));
        assertTrue(missing.getJsonRpcError().code() != ProxyServer.UPSTREAM_FAILED, "the upstream's own error, passed on: " + missing.getJsonRpcError());
    }

    /** An environment file on the filesystem server: {@code head} (its id and tools), its tasks. */
    private Path envFile(String name, String head, String tasks) throws Exception {
        Path envDir = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-" + name));
        Files.writeString(envDir.resolve("env.yaml"), head + "mcp:\n  command: [\"" + FILESYSTEM + "\", \"{workdir}\"]\ntasks: tasks.jsonl\n");
        Files.writeString(envDir.resolve("tasks.jsonl"), tasks);
        return envDir.resolve("env.yaml");
    }

    /** With the facts of an environment file (--env), a shift that needs one applies to the live server's tools. */
    @Test
    void anEnvironmentFilesFactsLetTheShiftsThatNeedThemApply() throws Exception {
        Path file = envFile("env", """
                id: fsfacts
                tools:
                  get_file_info: {read_only: true, record_of: {param: path, fields: [size]}}
                """, """
                {"id": "t1", "query": "What does a.txt say?", "gold": [{"tool": "read_text_file", "args": {"path": "{workdir}/a.txt"}}], "answer": "x"}
                """);
        Map<String, dev.openagent.sandbox.ToolFacts> facts;
        try (dev.openagent.byo.FileEnvironment env = dev.openagent.byo.FileEnvironment.load(file)) {
            facts = env.toolFacts();
        }
        assertThrows(IllegalArgumentException.class, () -> new ProxySession(upstream, ShiftSpec.parseStack("obs.missing-values"), 1));
        ProxySession session = new ProxySession(upstream, ShiftSpec.parseStack("obs.missing-values"), 1, facts);
        assertTrue(session.tools().stream().anyMatch(t -> t.name().equals("get_file_info")), session.tools().toString());
    }

    /**
     * --env FILE --task ID: a session is scored by the task's checks: its answer checks judge what the agent gives to
     * submit_answer, its state checks call the live server's tools when the session ends.
     */
    @Test
    void aSessionIsScoredByTheTasksChecks() throws Exception {
        Path file = envFile("tasks", """
                id: fstasks
                """, """
                {"id": "deadline", "query": "What deadline is written in project.txt?", "gold": [{"tool": "read_text_file", "args": {"path": "{workdir}/project.txt"}}], "answer": "2026-12-04"}
                {"id": "done", "query": "Write done into out.txt.", "gold": [{"tool": "write_file", "args": {"path": "{workdir}/out.txt", "content": "done"}}], "answer": "ok", "check": {"state": [{"tool": "read_text_file", "args": {"path": "{workdir}/out.txt"}, "result_contains": "done"}]}}
                """);
        FileEnvironment.ScoredTask deadline;
        FileEnvironment.ScoredTask done;
        try (FileEnvironment env = FileEnvironment.load(file)) {
            deadline = env.scoredTask("deadline", dir.toString(), 1);
            done = env.scoredTask("done", dir.toString(), 1);
        }
        ShiftStack none = ShiftStack.NONE;
        ProxySession right = new ProxySession(upstream, none, 1, Map.of(), deadline);
        assertTrue(right.shows(ProxySession.SUBMIT_ANSWER));
        assertFalse(right.call(ProxySession.SUBMIT_ANSWER, Map.of("answer", "The deadline is 2026-12-04.")).error());
        assertTrue(right.outcome().success(), right.outcome().toString());
        var recording = right.trajectory("t", right.outcome()).messages();
        assertEquals("user", recording.getFirst().role(), "a scored session's recording starts with the task's request: " + recording);
        assertEquals("What deadline is written in project.txt?", recording.getFirst().content());
        assertEquals("The deadline is 2026-12-04.", recording.getLast().content(), "and ends with the submitted answer");
        ProxySession wrong = new ProxySession(upstream, none, 1, Map.of(), deadline);
        wrong.call(ProxySession.SUBMIT_ANSWER, Map.of("answer", "2026-12-05"));
        assertFalse(wrong.outcome().success(), wrong.outcome().toString());

        ProxySession silent = new ProxySession(upstream, none, 1, Map.of(), done);
        Outcome before = silent.outcome();
        assertFalse(before.success());
        assertTrue(before.detail().contains("no answer was submitted") && before.detail().contains("state check"), before.detail());
        ProxySession writer = new ProxySession(upstream, none, 2, Map.of(), done);
        assertFalse(writer.call("write_file", Map.of("path", dir.resolve("out.txt").toString(), "content", "done")).error());
        assertTrue(writer.outcome().success(), "the server's state after the session: " + writer.outcome());
        assertEquals("done", writer.trajectory("t", writer.outcome()).taskId());
    }

    /**
     * The upstream killed while a call is in flight: the call fails as soon as the process exits (its timeout is
     * ten minutes, the test's one), and the next call runs on a restarted upstream.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anUpstreamKilledMidCallFailsThatCallAtOnce() throws Exception {
        useEverything(Duration.ofMinutes(10), "slow");
        ProxySession session = new ProxySession(upstream, ShiftStack.NONE, 1);
        java.util.concurrent.CountDownLatch running = firstProgress();
        java.util.concurrent.CompletableFuture<Object> slow = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return session.call("trigger-long-running-operation", Map.of("duration", 600, "steps", 600), Map.of("progressToken", "slow-1"));
            } catch (ProxySession.UpstreamFailure e) {
                return e;
            }
        });
        running.await();
        List<ProcessHandle> servers = upstreamProcesses();
        assertFalse(servers.isEmpty(), "the upstream process");
        servers.forEach(ProcessHandle::destroyForcibly);
        Object failed = slow.get();
        assertTrue(failed instanceof ProxySession.UpstreamFailure, "the call in flight fails: " + failed);
        assertTrue(((ProxySession.UpstreamFailure) failed).getMessage().contains("exited"), ((ProxySession.UpstreamFailure) failed).getMessage());
        ProxySession.Reply again = session.call("echo", Map.of("message", "back"));
        assertFalse(again.error(), again.text());
        assertTrue(again.text().contains("back"), again.text());
        assertEquals(2, upstream.starts());
    }

    private static List<ProcessHandle> upstreamProcesses() {
        return ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").contains("everything")).toList();
    }

    /** Several conditions (a tier, a;b): each session draws one by its seed, and --seed fixes the draw. */
    @Test
    void sessionsDrawTheirStackBySeed() {
        List<ShiftStack> two = List.of(ShiftSpec.parseStack("tool.identity-erasure"), ShiftSpec.parseStack("obs.format:format=xml"));
        try (SessionPool a = new SessionPool(upstream, two, Map.of(), null, 5, 8, Duration.ofMinutes(5), null);
             SessionPool b = new SessionPool(upstream, two, Map.of(), null, 5, 8, Duration.ofMinutes(5), null)) {
            List<String> drawn = new java.util.ArrayList<>();
            for (int i = 0; i < 8; i++) drawn.add(a.open().getValue().stack().label());
            assertEquals(2, new java.util.HashSet<>(drawn).size(), "both conditions are drawn: " + drawn);
            for (int i = 0; i < 8; i++) assertEquals(drawn.get(i), b.open().getValue().stack().label(), "the same seed draws the same");
        }
    }
}
