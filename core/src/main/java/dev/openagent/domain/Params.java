package dev.openagent.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolError;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A tool's parameter list: its JSON Schema and the validator of call arguments, side by side. */
public final class Params {
    private final List<Param> params;
    private final Map<String, Param> byName = new LinkedHashMap<>();
    private final ObjectNode schema;
    /** Whether the schema came from elsewhere (an MCP server, an environment file) and is shown as given. */
    private final boolean given;

    private Params(List<Param> params) {
        this.params = List.copyOf(params);
        for (Param p : this.params) {
            if (byName.put(p.name(), p) != null) throw new IllegalArgumentException("duplicate parameter " + p.name());
        }
        this.schema = buildSchema();
        this.given = false;
    }

    private Params(ObjectNode schema) {
        List<Param> top = new java.util.ArrayList<>();
        JsonNode required = schema.path("required");
        schema.path("properties").fields().forEachRemaining(e -> {
            boolean req = false;
            for (JsonNode r : required) req |= r.asText().equals(e.getKey());
            Param.Type type = switch (e.getValue().path("type").asText()) {
                case "integer" -> Param.Type.INTEGER;
                case "number" -> Param.Type.NUMBER;
                case "boolean" -> Param.Type.BOOLEAN;
                default -> Param.Type.STRING;
            };
            top.add(new Param(e.getKey(), type, e.getValue().path("description").asText(""), req, List.of(), null, null, 0));
        });
        this.params = List.copyOf(top);
        for (Param p : this.params) byName.put(p.name(), p);
        this.schema = schema.deepCopy();
        this.given = true;
    }

    /**
     * The parameters of a tool whose JSON Schema comes from elsewhere (an MCP server, an environment file):
     * shown exactly as given; arguments are checked for being an object holding the required properties (and
     * no others when the schema closes them); types and values are the tool's own to check.
     */
    public static Params ofSchema(ObjectNode schema) { return new Params(schema); }

    public static Params of(Param... params) { return new Params(List.of(params)); }

    public static Params of(List<Param> params) { return new Params(params); }

    public List<Param> list() { return params; }

    /** An object schema: properties with types and constraints, required names, no extra properties. */
    public ObjectNode schema() { return schema.deepCopy(); }

    private ObjectNode buildSchema() {
        ObjectNode root = Json.object();
        root.put("type", "object");
        ObjectNode props = root.putObject("properties");
        ArrayNode required = Json.array();
        for (Param p : params) {
            ObjectNode prop = props.putObject(p.name());
            prop.put("type", p.type().json);
            prop.put("description", p.description());
            if (!p.allowed().isEmpty()) {
                ArrayNode values = prop.putArray("enum");
                p.allowed().forEach(values::add);
            }
            if (p.minimum() != null) putNumber(prop, "minimum", p.type(), p.minimum());
            if (p.maximum() != null) putNumber(prop, "maximum", p.type(), p.maximum());
            if (p.type() == Param.Type.STRING) prop.put("maxLength", p.maxLength());
            if (p.required()) required.add(p.name());
        }
        root.set("required", required);
        root.put("additionalProperties", false);
        return root;
    }

    private static void putNumber(ObjectNode prop, String key, Param.Type type, double value) {
        if (type == Param.Type.INTEGER) prop.put(key, (long) value);
        else prop.put(key, value);
    }

    /**
     * Checks arguments against the parameters.
     *
     * @throws ToolFailure with {@link ToolError.Code#INVALID_ARGUMENTS} naming every problem found
     */
    public Args validate(JsonNode args) {
        if (args == null || !args.isObject()) {
            throw new ToolFailure(ToolError.Code.MALFORMED_ARGUMENTS, "arguments must be a JSON object");
        }
        StringBuilder problems = new StringBuilder();
        boolean closed = !given || !schema.path("additionalProperties").asBoolean(true);
        for (Iterator<String> it = args.fieldNames(); it.hasNext() && closed; ) {
            String name = it.next();
            if (!byName.containsKey(name)) problem(problems, "unknown parameter '" + name + "'");
        }
        for (Param p : params) {
            JsonNode v = args.get(p.name());
            if (v == null || v.isNull()) {
                if (p.required()) problem(problems, "missing required parameter '" + p.name() + "'");
                continue;
            }
            String issue = given ? null : check(p, v);
            if (issue != null) problem(problems, issue);
        }
        if (!problems.isEmpty()) {
            throw new ToolFailure(ToolError.Code.INVALID_ARGUMENTS, problems.toString());
        }
        return new Args((ObjectNode) args);
    }

    private static void problem(StringBuilder sb, String text) {
        if (!sb.isEmpty()) sb.append("; ");
        sb.append(text);
    }

    private static String check(Param p, JsonNode v) {
        String n = "'" + p.name() + "'";
        switch (p.type()) {
            case STRING -> {
                if (!v.isTextual()) return n + " must be a string";
                String s = v.asText();
                if (s.length() > p.maxLength()) return n + " is too long (" + s.length() + " > " + p.maxLength() + " characters)";
                if (!p.allowed().isEmpty() && !p.allowed().contains(s)) return n + " must be one of " + p.allowed();
            }
            case INTEGER -> {
                if (!v.isNumber() || (!v.isIntegralNumber() && v.asDouble() != Math.rint(v.asDouble()))) return n + " must be an integer";
                if (!v.canConvertToLong()) return n + " is out of range";
                return range(p, v.asDouble(), n);
            }
            case NUMBER -> {
                if (!v.isNumber()) return n + " must be a number";
                return range(p, v.asDouble(), n);
            }
            case BOOLEAN -> {
                if (!v.isBoolean()) return n + " must be true or false";
            }
        }
        return null;
    }

    private static String range(Param p, double value, String n) {
        if (p.minimum() != null && value < p.minimum()) return n + " must be >= " + fmt(p.minimum());
        if (p.maximum() != null && value > p.maximum()) return n + " must be <= " + fmt(p.maximum());
        return null;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
