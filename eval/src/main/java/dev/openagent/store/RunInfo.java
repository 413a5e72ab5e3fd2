package dev.openagent.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

/**
 * One evaluation run as stored: its id (a hash of the experiment, so rerunning the same
 * experiment continues the same run), a name, the experiment as JSON, and its state.
 *
 * @param planned episodes the experiment plans
 * @param status  running, complete (every planned episode scored), incomplete (errors), stopped or partial (a shard's part)
 */
public record RunInfo(String id, String name, String config, String createdAt, String updatedAt, int planned,
                      RunStatus status, String note) {
    /**
     * The server whose sessions the run recorded, as its stored experiment names it ({@code mcp} for {@code serve mcp},
     * {@code proxy} for {@code proxy mcp}), or "" for a run of the toolkit's own (eval, study, frontier, a training).
     */
    public String server() {
        try {
            JsonNode cfg = Json.parse(config);
            return cfg == null ? "" : cfg.path("server").asText("");
        } catch (RuntimeException notJson) {
            return "";
        }
    }
}
