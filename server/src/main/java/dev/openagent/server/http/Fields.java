package dev.openagent.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Typed, strict access to the fields of a JSON object in a request: a wrong type or an unknown
 * field is a 400 naming the field, so a typo ({@code "seeds"}) never silently picks another task.
 */
public final class Fields {
    private final ObjectNode node;
    private final String where;

    private Fields(ObjectNode node, String where) {
        this.node = node;
        this.where = where;
    }

    /**
     * @param where   how error messages name this object ("" for the request body, "tool_calls[0]")
     * @param allowed every field name the object may hold
     */
    public static Fields of(JsonNode node, String where, Set<String> allowed) {
        String name = where.isEmpty() ? "the request body" : where;
        if (!(node instanceof ObjectNode o)) throw ApiError.invalid(name + " must be a JSON object, not " + JsonHttp.kind(node));
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                throw ApiError.invalid(name + " has an unknown field '" + field + "' (allowed: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
            }
        }
        return new Fields(o, where);
    }

    /** The JSON a field takes; null is accepted for every field and reads as absent. */
    public enum Type {
        STRING("a string"), NUMBER("a number"), INTEGER("an integer"), BOOLEAN("true or false"), OBJECT("an object"),
        ARRAY("an array"), STRING_OR_ARRAY("a string or an array"), STRING_OR_OBJECT("a string or an object");

        private final String text;

        Type(String text) { this.text = text; }

        boolean accepts(JsonNode v) {
            return switch (this) {
                case STRING -> v.isTextual();
                case NUMBER -> v.isNumber();
                case INTEGER -> v.isIntegralNumber() && v.canConvertToLong();
                case BOOLEAN -> v.isBoolean();
                case OBJECT -> v.isObject();
                case ARRAY -> v.isArray();
                case STRING_OR_ARRAY -> v.isTextual() || v.isArray();
                case STRING_OR_OBJECT -> v.isTextual() || v.isObject();
            };
        }
    }

    /** As {@link #of(JsonNode, String, Set)}, and every field present must have its type. */
    public static Fields of(JsonNode node, String where, Map<String, Type> typed) {
        Fields f = of(node, where, typed.keySet());
        for (Iterator<Map.Entry<String, JsonNode>> it = f.node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Type type = typed.get(e.getKey());
            if (!e.getValue().isNull() && !type.accepts(e.getValue())) {
                throw ApiError.invalid(f.path(e.getKey()) + " must be " + type.text + ", not " + JsonHttp.kind(e.getValue()));
            }
        }
        return f;
    }

    private String path(String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    public boolean has(String name) {
        JsonNode v = node.get(name);
        return v != null && !v.isNull();
    }

    public JsonNode raw(String name) { return node.get(name); }

    public String string(String name) {
        if (!has(name)) throw ApiError.invalid((where.isEmpty() ? "the request body" : where) + " needs the field '" + name + "' (a string)");
        return optString(name, null);
    }

    public String optString(String name, String fallback) {
        if (!has(name)) return fallback;
        JsonNode v = node.get(name);
        if (!v.isTextual()) throw ApiError.invalid(path(name) + " must be a string, not " + JsonHttp.kind(v));
        return v.asText();
    }

    public long optLong(String name, long fallback) {
        if (!has(name)) return fallback;
        JsonNode v = node.get(name);
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw ApiError.invalid(path(name) + " must be an integer, not " + JsonHttp.kind(v));
        }
        return v.asLong();
    }

    /** An integer in [min, max]. */
    public int optInt(String name, int fallback, int min, int max) {
        long v = optLong(name, fallback);
        if (v < min || v > max) throw ApiError.invalid(path(name) + " must be " + range(min, max) + ", not " + v);
        return (int) v;
    }

    /** A number in [min, max]. */
    public double optNumber(String name, double fallback, double min, double max) {
        if (!has(name)) return fallback;
        JsonNode v = node.get(name);
        if (!v.isNumber()) throw ApiError.invalid(path(name) + " must be a number, not " + JsonHttp.kind(v));
        double d = v.asDouble();
        if (!(d >= min && d <= max)) throw ApiError.invalid(path(name) + " must be between " + num(min) + " and " + num(max) + ", not " + v.asText());
        return d;
    }

    private static String range(long min, long max) {
        return max == Integer.MAX_VALUE || max == Long.MAX_VALUE ? "at least " + min : "between " + min + " and " + max;
    }

    private static String num(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    public boolean optBool(String name, boolean fallback) {
        if (!has(name)) return fallback;
        JsonNode v = node.get(name);
        if (!v.isBoolean()) throw ApiError.invalid(path(name) + " must be true or false, not " + JsonHttp.kind(v));
        return v.asBoolean();
    }
}
