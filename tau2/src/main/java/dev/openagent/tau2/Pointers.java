package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.GoldPlan;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where values are in earlier results: the data dependencies of a tau2 task's gold actions. */
final class Pointers {
    private Pointers() {}

    /** For each id argument ({@code ..._id}, text), a reference to the latest earlier result holding that value. */
    static Map<String, GoldPlan.Ref> refs(ObjectNode args, List<JsonNode> results) {
        Map<String, GoldPlan.Ref> refs = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getKey().endsWith("_id") || !e.getValue().isTextual()) continue;
            for (int i = results.size() - 1; i >= 0; i--) {
                String at = find(results.get(i), e.getValue().asText(), "");
                if (at != null) {
                    refs.put(e.getKey(), new GoldPlan.Ref(i, at));
                    break;
                }
            }
        }
        return refs;
    }

    /** The JSON pointer of the first text equal to {@code value} in {@code node}, in document order, or null. */
    static String find(JsonNode node, String value, String at) {
        if (node.isTextual()) return node.asText().equals(value) ? at : null;
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = find(node.get(i), value, at + "/" + i);
                if (p != null) return p;
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                var e = it.next();
                String p = find(e.getValue(), value, at + "/" + e.getKey().replace("~", "~0").replace("/", "~1"));
                if (p != null) return p;
            }
        }
        return null;
    }
}
