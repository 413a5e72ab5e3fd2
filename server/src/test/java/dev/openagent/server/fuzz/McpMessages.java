package dev.openagent.server.fuzz;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.FinishedEpisode;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.mcp.McpEnvServer;

import java.util.List;

/** What {@code serve mcp} is fuzzed from, over HTTP and stdio: a valid message of each method, and its options. */
final class McpMessages {
    static final List<JsonNode> VALID = List.of(
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                    + "\"capabilities\":{\"roots\":{\"listChanged\":true},\"sampling\":{}},\"clientInfo\":{\"name\":\"fuzz\",\"version\":\"1\"},\"_meta\":{}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{\"cursor\":\"X\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":\"3\",\"method\":\"tools/call\",\"params\":{\"name\":\"get_task\",\"arguments\":{},"
                    + "\"_meta\":{\"progressToken\":7}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"search_places\",\"arguments\":{\"city\":\"X\",\"min_rating\":4}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"prompts/get\",\"params\":{\"name\":\"task\",\"arguments\":{}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{\"uri\":\"openagent://task\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"completion/complete\",\"params\":{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"task\"},"
                    + "\"argument\":{\"name\":\"a\",\"value\":\"b\"}}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"logging/setLevel\",\"params\":{\"level\":\"info\"}}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
            Json.parse("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":3,\"reason\":\"X\"}}"));

    private McpMessages() {}

    /** The poi environment's test split, episodes recorded nowhere. */
    static McpEnvServer.Options options() {
        return new McpEnvServer.Options(EnvChoice.of(new Catalog(), "poi", "none"), new TaskChoice(Split.TEST, 0, 1), 0, null, new EpisodeSink() {
            @Override
            public void record(FinishedEpisode episode) {}

            @Override
            public String describe() { return "nowhere"; }
        });
    }
}
