package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.shift.ShiftStack;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The small Python MCP server of the test resources (one tool, echo; completions; no resources), as an upstream. */
final class PlainUpstream {
    private PlainUpstream() {}

    /** Starts it (with {@code args}, such as --noise) in {@code dir}, waiting at most {@code timeout} for each request. */
    static Upstream start(Path dir, Duration timeout, String... args) throws IOException {
        Path script = dir.resolve("plain_server.py");
        if (!Files.exists(script)) {
            try (InputStream in = PlainUpstream.class.getResourceAsStream("/mcp/plain_server.py")) {
                Files.copy(in, script);
            }
        }
        List<String> command = new ArrayList<>(List.of("python3", script.toString()));
        command.addAll(List.of(args));
        return new Upstream(command, null, timeout, dir.resolve("upstream.log"));
    }

    /** A session through the proxy with no shift, answering raw JSON-RPC requests. */
    static ProxySession session(Upstream upstream) {
        return new ProxySession(upstream, ShiftStack.NONE, 1);
    }

    /** The proxy's response to one request (JSON-RPC text), as a client would get it. */
    static JsonNode answer(ProxySession session, String request) {
        ObjectNode r = ProxyProtocol.answer(session, Json.parse(request));
        return r;
    }
}
