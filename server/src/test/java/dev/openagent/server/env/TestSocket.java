package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** An OpenEnv WebSocket session for tests: JSON messages out, parsed answers in (loopback only). */
final class TestSocket implements AutoCloseable {
    final WebSocketConnection ws;

    TestSocket(EnvServer server) throws IOException {
        this(server, null);
    }

    /** @param authorization the handshake's Authorization header, or null */
    TestSocket(EnvServer server, String authorization) throws IOException {
        URI uri = URI.create(server.baseUrl());
        ws = new WebSocketConnection(new InetSocketAddress(uri.getHost(), uri.getPort()), uri.getRawAuthority(), "/ws", 30_000, authorization);
    }

    JsonNode send(String text) {
        try {
            ws.send(text.getBytes(StandardCharsets.UTF_8));
            return Json.MAPPER.readTree(ws.receive());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode send(Object message) { return send(Json.write(message)); }

    JsonNode reset(Map<String, ?> data) { return send(Map.of("type", "reset", "data", data)); }

    JsonNode step(JsonNode action) { return send(Map.of("type", "step", "data", action)); }

    JsonNode state() { return send("{\"type\":\"state\"}"); }

    /** Steps with the oracle action each observation carries until done; returns the last {observation, reward, done}. */
    JsonNode playWithOracle(JsonNode reset) {
        JsonNode result = reset.get("data");
        for (int i = 0; i < 60; i++) {
            JsonNode answer = step(result.get("observation").get("oracle"));
            if (!answer.path("type").asText().equals("observation")) throw new AssertionError("not an observation: " + answer);
            result = answer.get("data");
            if (result.get("done").asBoolean()) return result;
        }
        throw new AssertionError("episode did not end");
    }

    @Override
    public void close() { ws.close(); }
}
