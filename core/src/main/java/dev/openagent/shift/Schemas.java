package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Edits of JSON-Schema object schemas (a tool's parameters), returning new schemas. */
public final class Schemas {
    private Schemas() {}

    public static List<String> params(ObjectNode schema) {
        List<String> out = new ArrayList<>();
        schema.path("properties").fieldNames().forEachRemaining(out::add);
        return out;
    }

    public static boolean required(ObjectNode schema, String param) {
        for (JsonNode n : schema.path("required")) if (n.asText().equals(param)) return true;
        return false;
    }

    /**
     * The schema with parameters renamed (inner name -> outer name) and listed in {@code order}
     * (outer names; null keeps the original order).
     */
    public static ObjectNode rename(ObjectNode schema, Map<String, String> innerToOuter, List<String> order) {
        ObjectNode out = schema.deepCopy();
        ObjectNode props = Json.object();
        JsonNode old = schema.path("properties");
        List<String> names = new ArrayList<>();
        old.fieldNames().forEachRemaining(n -> names.add(innerToOuter.getOrDefault(n, n)));
        List<String> sequence = order == null ? names : order;
        for (String outer : sequence) {
            String inner = innerOf(innerToOuter, outer);
            if (old.has(inner)) props.set(outer, old.get(inner).deepCopy());
        }
        out.set("properties", props);
        ArrayNode req = Json.array();
        for (String outer : sequence) {
            String inner = innerOf(innerToOuter, outer);
            if (required(schema, inner)) req.add(outer);
        }
        out.set("required", req);
        return out;
    }

    private static String innerOf(Map<String, String> innerToOuter, String outer) {
        for (var e : innerToOuter.entrySet()) if (e.getValue().equals(outer)) return e.getKey();
        return outer;
    }

    /** The schema with one more parameter. */
    public static ObjectNode withParam(ObjectNode schema, String name, String type, String description, boolean required) {
        ObjectNode out = schema.deepCopy();
        ObjectNode props = out.get("properties") instanceof ObjectNode o ? o : out.putObject("properties");
        ObjectNode prop = props.putObject(name);
        prop.put("type", type);
        prop.put("description", description);
        if (type.equals("string")) prop.put("maxLength", 200);
        // A schema may leave "required" out when nothing is (pydantic's do: tau2's list_all_product_types).
        if (required) (out.get("required") instanceof ArrayNode a ? a : out.putArray("required")).add(name);
        return out;
    }

    /** The schema with a parameter's description replaced. */
    public static ObjectNode describe(ObjectNode schema, String param, String description) {
        ObjectNode out = schema.deepCopy();
        JsonNode p = out.path("properties").path(param);
        if (p instanceof ObjectNode o) o.put("description", description);
        return out;
    }

    /** A parameter-less object schema. */
    public static ObjectNode empty() {
        ObjectNode o = Json.object();
        o.put("type", "object");
        o.putObject("properties");
        o.putArray("required");
        o.put("additionalProperties", false);
        return o;
    }
}
