package dev.openagent.domain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Arguments of a call after validation: typed access, so behaviours never see bad input. */
public final class Args {
    private final ObjectNode values;

    Args(ObjectNode values) {
        this.values = values;
    }

    public boolean has(String name) {
        JsonNode v = values.get(name);
        return v != null && !v.isNull();
    }

    public String string(String name) {
        return values.get(name).asText();
    }

    public String string(String name, String fallback) {
        return has(name) ? string(name) : fallback;
    }

    public int integer(String name) {
        return values.get(name).asInt();
    }

    public int integer(String name, int fallback) {
        return has(name) ? integer(name) : fallback;
    }

    public double number(String name) {
        return values.get(name).asDouble();
    }

    public double number(String name, double fallback) {
        return has(name) ? number(name) : fallback;
    }

    public boolean bool(String name, boolean fallback) {
        return has(name) ? values.get(name).asBoolean() : fallback;
    }

    public ObjectNode json() { return values.deepCopy(); }

    /** An argument's JSON value as given (null when absent): for behaviours that check types the schema leaves open. */
    public JsonNode get(String name) {
        JsonNode v = values.get(name);
        return v == null ? null : v.deepCopy();
    }

    /** The names of the arguments given, in order. */
    public java.util.List<String> names() {
        java.util.List<String> out = new java.util.ArrayList<>();
        values.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
