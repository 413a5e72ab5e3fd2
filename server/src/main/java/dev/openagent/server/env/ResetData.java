package dev.openagent.server.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.Fields;

import java.util.Set;

/**
 * What a reset may choose, from the WebSocket message's {@code data} or the body of
 * {@code POST /reset}: OpenEnv's own fields ({@code seed} >= 0, {@code episode_id} of at most 255
 * characters) and ours (environment, shift stack, split, difficulty, task index, run seed). A
 * null field keeps the session's current choice (at first, the server's defaults). Unknown
 * fields are refused, so a typo ({@code "seeds"}) never silently picks another task.
 *
 * @param seed a task seed (instead of the next task index)
 * @param task a task index: the i-th task of {@code openagent run --seed RUN_SEED}
 */
record ResetData(String env, String shift, Split split, Integer difficulty, Integer task, Long seed, Long runSeed,
                 String episodeId) {
    /** The fields a reset takes, as the OpenAPI document declares them (OpenEnv's ResetRequest and ours). */
    static final ObjectNode SCHEMA = schema();
    static final Set<String> FIELDS = SCHEMA.get("properties").properties().stream().map(java.util.Map.Entry::getKey).collect(java.util.stream.Collectors.toUnmodifiableSet());
    static final ResetData NONE = new ResetData(null, null, null, null, null, null, null, null);

    /** @throws ApiError 400 naming the field that is wrong */
    static ResetData parse(JsonNode data, String where) {
        if (data == null || data.isNull()) return NONE;
        Fields f = Fields.of(data, where, FIELDS);
        if (f.has("task") && f.has("seed")) throw ApiError.invalid("give task (an index) or seed, not both");
        Split split = null;
        if (f.has("split")) {
            try {
                split = Split.parse(f.optString("split", null));
            } catch (IllegalArgumentException e) {
                throw ApiError.invalid(e.getMessage());
            }
        }
        String episodeId = f.optString("episode_id", null);
        if (episodeId != null && (episodeId.isEmpty() || episodeId.length() > 255)) {
            throw ApiError.invalid("episode_id must have 1 to 255 characters");
        }
        return new ResetData(
                f.optString("env", null),
                f.optString("shift", null),
                split,
                f.has("difficulty") ? f.optInt("difficulty", 0, 0, 1000) : null,
                f.has("task") ? f.optInt("task", 0, 0, Integer.MAX_VALUE) : null,
                f.has("seed") ? nonNegative(f.optLong("seed", 0)) : null,
                f.has("run_seed") ? f.optLong("run_seed", 1) : null,
                episodeId);
    }

    private static ObjectNode schema() {
        ObjectNode o = Json.object().put("type", "object").put("additionalProperties", false);
        ObjectNode p = o.putObject("properties");
        p.putObject("env").put("type", "string").put("description", "an environment id");
        p.putObject("shift").put("type", "string").put("description", "one shift stack: a shift id with parameters, or several joined with '+'");
        p.putObject("split").put("type", "string").set("enum", Json.tree(java.util.Arrays.stream(Split.values()).map(Split::id).toList()));
        p.putObject("difficulty").put("type", "integer").put("minimum", 0).put("description", "0 mixes the levels");
        p.putObject("task").put("type", "integer").put("minimum", 0).put("description", "a task index; not with seed");
        p.putObject("seed").put("type", "integer").put("minimum", 0).put("description", "a task seed; not with task");
        p.putObject("run_seed").put("type", "integer");
        p.putObject("episode_id").put("type", "string").put("minLength", 1).put("maxLength", 255);
        return o;
    }

    /** OpenEnv's ResetRequest declares {@code seed >= 0}. */
    private static long nonNegative(long seed) {
        if (seed < 0) throw ApiError.invalid("seed must be >= 0 (OpenEnv's ResetRequest), not " + seed);
        return seed;
    }
}
