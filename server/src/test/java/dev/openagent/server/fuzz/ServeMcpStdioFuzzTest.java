package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.mcp.McpEnvServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fuzzing pass over {@code serve mcp} over stdio (Jazzer, coverage-guided, a bounded number of executions): each
 * input is one line (a JSON-RPC message grown from a valid one of each method, or the fuzzer's bytes, line breaks made
 * spaces) followed by a ping that must be answered, so a line that stops the session is a finding. Every line the
 * server writes up to the ping's answer is a JSON-RPC message; an answer to the fuzzed line has the error code that
 * fits it (see {@link Answers#checkJsonRpc}), never -32603, and no library's or Java's text; the server logs no stack
 * trace.
 */
class ServeMcpStdioFuzzTest {
    private static ServerLog log;
    private static McpEnvServer server;
    private static OutputStream toServer;
    private static final BlockingQueue<String> LINES = new LinkedBlockingQueue<>();
    private static int pings;
    /** The lines sent last, which a late answer may quote. */
    private static final java.util.ArrayDeque<String> RECENT = new java.util.ArrayDeque<>();

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        log = ServerLog.capture();
        // NIO pipes: a java.io pipe breaks once the thread that last wrote it ends, and the SDK writes from a pool.
        Pipe in = Pipe.open(), out = Pipe.open();
        toServer = Channels.newOutputStream(in.sink());
        server = McpEnvServer.stdio(McpMessages.options(), Channels.newInputStream(in.source()), Channels.newOutputStream(out.sink()));
        BufferedReader reader = new BufferedReader(new InputStreamReader(Channels.newInputStream(out.source()), StandardCharsets.UTF_8));
        Thread.ofVirtual().start(() -> {
            try {
                for (String l = reader.readLine(); l != null; l = reader.readLine()) LINES.add(l);
            } catch (IOException e) {
                // the server closed its end: the pass is over
            }
        });
        write(Json.write(McpMessages.VALID.getFirst()) + "\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
        assertTrue(Json.parse(LINES.poll(30, TimeUnit.SECONDS)).has("result"), "initialized");
    }

    private static void write(String lines) throws IOException {
        toServer.write(lines.getBytes(StandardCharsets.UTF_8));
        toServer.flush();
    }

    @AfterAll
    static void stop() throws Exception {
        log.closeAfter(toServer, server);
    }

    @FuzzTest(maxExecutions = 1500, maxDuration = "30s")
    void everyLineIsAnsweredAndTheSessionGoesOn(FuzzedDataProvider data) throws IOException, InterruptedException {
        byte[] line = new Mutator(data).request(McpMessages.VALID);
        for (int i = 0; i < line.length; i++) if (line[i] == '\n') line[i] = ' ';
        String ping = "ping-" + pings++;
        toServer.write(line);
        write("\n{\"jsonrpc\":\"2.0\",\"id\":\"" + ping + "\",\"method\":\"ping\"}\n");
        String sent = new String(line, StandardCharsets.UTF_8);
        RECENT.addLast(sent);
        if (RECENT.size() > 50) RECENT.removeFirst();
        JsonNode request = Answers.parseStrictly(line);
        JsonNode id = request == null ? null : request.get("id");
        while (true) {
            String answer = LINES.poll(20, TimeUnit.SECONDS);
            assertNotNull(answer, "the server stopped answering after " + Answers.abbreviate(sent));
            JsonNode m = Json.parse(answer);
            if (m.path("id").asText().equals(ping)) break;
            if (m.has("method")) continue;   // a notification of the server's own (the tool list changed)
            JsonNode answered = m.get("id");
            if (answered == null || answered.isNull() || answered.equals(id)) {
                Answers.checkJsonRpc(m, line);
            } else {
                // The SDK answers requests concurrently: a late answer to an earlier line, judged by its shape.
                Answers.checkJsonRpcShape(m, String.join("\n", RECENT));
            }
        }
        log.check(Answers.abbreviate(sent));
    }
}
