package dev.openagent.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** One parameter of a tool as its JSON Schema shows it: what the policy reads to fill it. */
record ParamSpec(String name, String description, Type type, List<String> values, boolean required) {
    enum Type { STRING, INTEGER, NUMBER, BOOLEAN }

    ParamSpec {
        values = List.copyOf(values);
    }

    boolean isEnum() { return !values.isEmpty(); }

    /** The parameters of a tool in schema order, at most {@code max}. Unknown types read as strings. */
    static List<ParamSpec> of(ToolSpec tool, int max) {
        List<ParamSpec> all = ToolReading.of(tool).params();
        return all.size() <= max ? all : all.subList(0, max);
    }

    /** Reads a tool's schema (once per tool instance: {@link ToolReading}). */
    static List<ParamSpec> parse(ToolSpec tool) {
        JsonNode schema = tool.parameters();
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(n -> required.add(n.asText()));
        List<ParamSpec> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
            var e = it.next();
            JsonNode p = e.getValue();
            Type type = switch (p.path("type").asText("string")) {
                case "integer" -> Type.INTEGER;
                case "number" -> Type.NUMBER;
                case "boolean" -> Type.BOOLEAN;
                default -> Type.STRING;
            };
            List<String> values = new ArrayList<>();
            p.path("enum").forEach(v -> values.add(v.asText()));
            // A boolean is a choice of two values, never copied text ("accepts new patients" says true, but not the word).
            if (type == Type.BOOLEAN && values.isEmpty()) values.addAll(List.of("true", "false"));
            out.add(new ParamSpec(e.getKey(), p.path("description").asText(""), type, values, required.contains(e.getKey())));
        }
        return List.copyOf(out);
    }
}
