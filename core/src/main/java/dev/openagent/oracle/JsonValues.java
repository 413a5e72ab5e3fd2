package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** How the view solver compares the JSON values of calls and results. */
final class JsonValues {
    private JsonValues() {}

    /** The texts of the scalar leaves of a value a call sends (booleans and nulls say what is meant, not what was seen). */
    static List<String> leaves(JsonNode v) {
        List<String> out = new ArrayList<>();
        if (v.isTextual()) {
            if (!v.asText().isBlank()) out.add(v.asText());
        } else if (v.isNumber()) {
            out.add(v.asText());
        } else if (v.isContainerNode()) {
            v.forEach(x -> out.addAll(leaves(x)));
        }
        return out;
    }

    /** Whether two argument objects say the same (numbers by value, whatever their JSON type; text in any letter case). */
    static boolean sameArgs(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) return false;
            for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!b.has(k) || !sameArgs(a.get(k), b.get(k))) return false;
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) return false;
            for (int i = 0; i < a.size(); i++) if (!sameArgs(a.get(i), b.get(i))) return false;
            return true;
        }
        if (a.isTextual() && b.isTextual()) return a.asText().equalsIgnoreCase(b.asText());
        return a.equals(b);
    }

    /** The JSON pointer at which a value stands in a result (the first, depth first), or null. */
    static String pointerOf(JsonNode v, String value) {
        if (v.isValueNode()) return (v.isTextual() ? v.asText() : v.toString()).equals(value) ? "" : null;
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                var e = it.next();
                String p = pointerOf(e.getValue(), value);
                if (p != null) return "/" + e.getKey().replace("~", "~0").replace("/", "~1") + p;
            }
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) {
                String p = pointerOf(v.get(i), value);
                if (p != null) return "/" + i + p;
            }
        }
        return null;
    }
}
