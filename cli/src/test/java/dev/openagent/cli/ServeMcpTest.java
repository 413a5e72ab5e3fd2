package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.results.EpisodeResult;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.TaskChoice;
import dev.openagent.store.RunStatus;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `openagent serve mcp --stdio` driven by the official MCP Java SDK client, which launches the
 * server as a subprocess (`java -cp <test classpath> dev.openagent.cli.Main serve mcp ...`).
 */
class ServeMcpTest {
    /** The shift the served tools are checked under; any stack the catalog knows works here. */
    static final String SHIFT = "tool.semantic-rename+obs.format:format=xml";
    static final int TASK = 2;

    /** The server's command line; {@code record} is {@code --out DIR} (JSON lines) or {@code --store FILE}. */
    static List<String> serverCommand(List<String> record, String... extra) {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                "dev.openagent.cli.Main", "serve", "mcp", "--env", "poi", "--shift", SHIFT, "--task", "" + TASK,
                "--split", "test"));
        cmd.addAll(record);
        cmd.addAll(List.of(extra));
        return cmd;
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void officialClientListsTheShiftedToolsAndSolvesAnEpisode(@TempDir Path out) throws Exception {
        // What an agent sees in-process for the same task: the served tools must be exactly these.
        EnvChoice choice = EnvChoice.of(new Catalog(), "poi", SHIFT);
        Env local = choice.create();
        TaskRequest request = new TaskChoice(Split.TEST, 0, 1).byIndex(TASK);
        Start start = local.reset(request);
        List<Action> oracle = BenchCommand.oracleActions(local, start);   // checked below: it solves the episode through MCP

        Path storeFile = out.resolve("store.db");
        List<String> cmd = serverCommand(List.of("--store", storeFile.toString()), "--stdio");
        ServerParameters params = ServerParameters.builder(cmd.getFirst()).args(cmd.subList(1, cmd.size())).build();
        StdioClientTransport transport = new StdioClientTransport(params, McpJsonDefaults.getMapper());
        java.util.concurrent.BlockingQueue<List<McpSchema.Tool>> changed = new java.util.concurrent.LinkedBlockingQueue<>();
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60))
                .initializationTimeout(Duration.ofSeconds(90)).toolsChangeConsumer(changed::add).build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("openagent", init.serverInfo().name());

            List<McpSchema.Tool> tools = client.listTools().tools();
            List<String> names = tools.stream().map(McpSchema.Tool::name).toList();
            for (ToolSpec t : start.tools()) {
                McpSchema.Tool served = tools.stream().filter(x -> x.name().equals(t.name())).findFirst().orElseThrow(
                        () -> new AssertionError("tool " + t.name() + " not served; served: " + names));
                assertEquals(t.description(), served.description());
                assertTrue(t.parameters().equals(SAME_JSON, Json.tree(served.inputSchema())),
                        "schema of " + t.name() + ": " + t.parameters() + " served as " + served.inputSchema());
            }
            assertTrue(names.containsAll(List.of("get_task", "submit_answer", "refuse")), names.toString());
            assertEquals(start.tools().size() + 3, tools.size(), names.toString());

            String task = text(client.callTool(McpSchema.CallToolRequest.builder("get_task").arguments(Map.of()).build()));
            assertTrue(task.contains(start.query()), task);
            McpSchema.GetPromptResult prompt = client.getPrompt(McpSchema.GetPromptRequest.builder("task").build());
            assertTrue(((McpSchema.TextContent) prompt.messages().getFirst().content()).text().contains(start.query()));

            // Bad arguments reach the environment and come back as its error observation.
            String firstTool = start.tools().getFirst().name();
            McpSchema.CallToolResult bad = client.callTool(McpSchema.CallToolRequest.builder(firstTool).arguments(Map.of("no_such_parameter", 1)).build());
            assertTrue(bad.isError());
            assertTrue(text(bad).startsWith("Error [INVALID_ARGUMENTS]"), text(bad));

            // The oracle's plan, replayed through MCP tool calls, solves the episode.
            String last = null;
            for (Action a : oracle) {
                McpSchema.CallToolResult r = switch (a) {
                    case Action.CallTools c -> {
                        Action.ToolCall call = c.calls().getFirst();
                        @SuppressWarnings("unchecked")
                        Map<String, Object> args = Json.MAPPER.readValue(call.arguments(), Map.class);
                        yield client.callTool(McpSchema.CallToolRequest.builder(call.name()).arguments(args).build());
                    }
                    case Action.Answer ans -> client.callTool(McpSchema.CallToolRequest.builder("submit_answer").arguments(Map.of("answer", ans.text())).build());
                    case Action.Refuse ref -> client.callTool(McpSchema.CallToolRequest.builder("refuse").arguments(Map.of("reason", ref.reason())).build());
                    default -> throw new AssertionError("unexpected oracle action " + a);
                };
                last = text(r);
                assertFalse(r.isError(), last);
            }
            assertTrue(last.contains("\"success\":true"), last);
            assertTrue(last.contains("The next task has started"), last);

            // The next task's shifted tools differ (names are drawn per episode): the client is notified.
            List<McpSchema.Tool> next = changed.poll(60, TimeUnit.SECONDS);
            assertTrue(next != null, "no tools/list_changed notification");
            List<String> expected = local.reset(new TaskChoice(Split.TEST, 0, 1).byIndex(TASK + 1)).tools().stream().map(ToolSpec::name).toList();
            assertTrue(client.listTools().tools().stream().map(McpSchema.Tool::name).toList().containsAll(expected), expected.toString());
        }

        transport.awaitForExit();   // closing the client closed the server's stdin: it finishes and exits
        // The episode is in the results store, as one run that `openagent report` can read.
        try (ResultStore store = ResultStore.openExisting(storeFile)) {
            List<RunInfo> runs = store.runs();
            assertEquals(1, runs.size());
            assertTrue(runs.getFirst().id().startsWith("mcp-poi-"), runs.getFirst().id());
            assertEquals(RunStatus.COMPLETE, runs.getFirst().status());
            List<EpisodeResult> episodes = store.episodes(runs.getFirst().id());
            assertEquals(1, episodes.size());
            EpisodeResult e = episodes.getFirst();
            assertTrue(e.success());
            assertTrue(e.agent().startsWith("mcp"), e.agent());
            assertEquals(request.seed(), e.key().taskSeed());
            assertEquals(TASK, e.taskIndex());
            assertEquals(1, e.stats().toolErrors(), "the one bad call is counted as a tool error");
        }
        CliTest.Result report = CliTest.run("report", "--store", storeFile.toString(), "--out", out.resolve("report").toString());
        assertEquals(0, report.code(), report.err());
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void exitsWhenStdinClosesAndOnSigterm(@TempDir Path out) throws Exception {
        Process eof = new ProcessBuilder(serverCommand(List.of("--out", out.resolve("a").toString()), "--stdio")).redirectErrorStream(true).start();
        eof.getOutputStream().close();
        assertTrue(eof.waitFor(90, TimeUnit.SECONDS), "server still running after stdin closed");
        String log = new String(eof.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, eof.exitValue(), log);
        assertTrue(log.contains("stopped after 0 recorded episodes"), log);

        Process term = new ProcessBuilder(serverCommand(List.of("--out", out.resolve("b").toString()), "--stdio")).redirectErrorStream(true).start();
        // Wait until it serves: an initialize request gets its answer.
        term.getOutputStream().write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}\n").getBytes(StandardCharsets.UTF_8));
        term.getOutputStream().flush();
        StringBuffer output = new StringBuffer();
        java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        Thread pump = Thread.ofVirtual().start(() -> {
            try (var reader = new java.io.BufferedReader(new java.io.InputStreamReader(term.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = reader.readLine()) != null; ) {
                    output.append(line).append('\n');
                    if (line.contains("\"id\":1") && line.contains("serverInfo")) answered.countDown();
                }
            } catch (java.io.IOException closed) {
                // the process is gone
            }
        });
        assertTrue(answered.await(90, TimeUnit.SECONDS), "no initialize answer: " + output);
        term.toHandle().destroy();   // SIGTERM (Process.destroy would also close our end of its output)
        assertTrue(term.waitFor(60, TimeUnit.SECONDS), "server still running after SIGTERM");
        pump.join(10_000);
        assertTrue(output.toString().contains("serve mcp: stopped"), output.toString());
    }

    private static String text(McpSchema.CallToolResult r) {
        StringBuilder sb = new StringBuilder();
        for (McpSchema.Content c : r.content()) if (c instanceof McpSchema.TextContent t) sb.append(t.text());
        return sb.toString();
    }

    /** JSON equality where 1 and 1L (and 1.0) are the same number, as they are on the wire. */
    static final java.util.Comparator<JsonNode> SAME_JSON = (a, b) -> {
        if (a.equals(b)) return 0;
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue());
        return 1;
    };
}
