package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * obs.schema-drift: partway through the episode (after the agent's first tool result, which keeps the
 * schema it knows) the results' keys and nesting change, as when a service rolls out a new API version
 * under a running client. Severity 1 wraps each result in a {@code data} envelope; 2 also renames every key
 * to camelCase ({@code place_id} -> {@code placeId}); 3 renames key words to the environment's synonyms
 * first ({@code place_id} -> {@code venueId}) and nests the envelope one level deeper
 * ({@code response.data}). Values are untouched.
 */
public final class SchemaDrift extends ShiftEnv<SchemaDrift.Episode> {
    public static final Shift SHIFT = new Shift("obs.schema-drift", Tier.INTERACTION, Dimension.O,
            "Partway through the episode the results' keys and nesting change (an envelope; renamed keys).",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "the keys and nesting changed are those of JSON results"), SchemaDrift::new).allowing(Allowance.KEY_SYNONYMS)
                    .seenAs(Sign.RESULT_KEYS_CHANGED, Sign.OUTPUT_SCHEMA_CHANGED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        int results;
    }

    private SchemaDrift(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || o.payload() == null || Protocol.ASK_USER.equals(o.tool())) return o;
        if (ep.results++ == 0) return o;
        JsonNode body = severity() >= 2 ? renamed(o.payload()) : o.payload().deepCopy();
        ObjectNode out = Json.object();
        if (severity() >= 3) {
            ObjectNode response = out.putObject("response");
            response.put("api_version", "2026-12");
            response.set("data", body);
        } else {
            out.put("api_version", "2026-12");
            out.set("data", body);
        }
        return o.withPayload(out, Json.write(out));
    }

    private JsonNode renamed(JsonNode node) {
        if (node instanceof ObjectNode obj) {
            ObjectNode out = Json.object();
            for (Iterator<Map.Entry<String, JsonNode>> it = obj.fields(); it.hasNext(); ) {
                var e = it.next();
                String key = key(e.getKey());
                while (out.has(key)) key = key + "_";
                out.set(key, renamed(e.getValue()));
            }
            return out;
        }
        if (node instanceof ArrayNode arr) {
            ArrayNode out = Json.NODES.arrayNode();
            arr.forEach(x -> out.add(renamed(x)));
            return out;
        }
        return node;
    }

    private String key(String key) {
        if (severity() < 3) return Texts.camel(key);
        List<String> words = new ArrayList<>();
        for (String w : key.split("_")) {
            List<String> alt = facts().synonyms().get(w);
            words.add(alt == null || alt.isEmpty() ? w : alt.getFirst().replace(' ', '_'));
        }
        return Texts.camel(String.join("_", words));
    }
}
