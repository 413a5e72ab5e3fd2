package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.openagent.json.Json;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.mcp.McpEnvServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fuzzing pass over {@code serve mcp} over Streamable HTTP (Jazzer, coverage-guided, a bounded number of
 * executions): each input is one JSON-RPC message grown from a valid one of each method (or the fuzzer's bytes),
 * posted to {@code /mcp}. A notification gets 202 and no body; everything else a JSON-RPC response (200, or 400 when
 * it cannot name the request) whose error code fits the message (see {@link Answers#checkJsonRpc}), never -32603, with
 * a one-line message without a library's or Java's text; the server logs no stack trace. The server binds 127.0.0.1
 * and is stopped after the pass.
 */
class ServeMcpHttpFuzzTest {
    private static ServerLog log;
    private static McpEnvServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws IOException {
        log = ServerLog.capture();
        server = McpEnvServer.http(McpMessages.options(), "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
        client = Exchange.client();
    }

    @AfterAll
    static void stop() throws Exception {
        log.closeAfter(client, server);
    }

    @FuzzTest(maxExecutions = 1500, maxDuration = "30s")
    void everyMessageGetsAJsonRpcAnswer(FuzzedDataProvider data) {
        byte[] body = new Mutator(data).request(McpMessages.VALID);
        Exchange answer;
        try (SilentCloseable loopback = Exchange.allowOnly(URI.create(server.url()).getPort())) {
            answer = Exchange.send(client, "POST", server.url(), body, Map.of("Accept", "application/json, text/event-stream"));
        }
        String what = answer.status() + " for " + Answers.abbreviate(answer.sent()) + ": " + Answers.abbreviate(answer.body());
        assertTrue(List.of(200, 202, 400).contains(answer.status()), what);
        if (answer.status() == 202) {
            assertTrue(answer.body().isEmpty(), what);
        } else {
            Answers.checkJsonRpc(Json.parse(answer.body()), body);
        }
        log.check(what);
    }
}
