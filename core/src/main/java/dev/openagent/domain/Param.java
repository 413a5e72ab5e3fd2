package dev.openagent.domain;

import java.util.List;

/**
 * One tool parameter: its JSON type, description and constraints. {@link Params} turns a list of
 * them into a JSON Schema and validates call arguments against it.
 */
public record Param(String name, Type type, String description, boolean required, List<String> allowed,
                    Double minimum, Double maximum, int maxLength) {
    public enum Type {
        STRING("string"), INTEGER("integer"), NUMBER("number"), BOOLEAN("boolean");

        public final String json;

        Type(String json) { this.json = json; }
    }

    /** Strings longer than this are rejected unless a parameter says otherwise. */
    public static final int DEFAULT_MAX_LENGTH = 200;

    public Param {
        allowed = allowed == null ? List.of() : List.copyOf(allowed);
    }

    public static Param string(String name, String description) {
        return new Param(name, Type.STRING, description, true, List.of(), null, null, DEFAULT_MAX_LENGTH);
    }

    public static Param integer(String name, String description, int min, int max) {
        return new Param(name, Type.INTEGER, description, true, List.of(), (double) min, (double) max, 0);
    }

    public static Param number(String name, String description, double min, double max) {
        return new Param(name, Type.NUMBER, description, true, List.of(), min, max, 0);
    }

    public static Param bool(String name, String description) {
        return new Param(name, Type.BOOLEAN, description, true, List.of(), null, null, 0);
    }

    public static Param oneOf(String name, String description, List<String> values) {
        return new Param(name, Type.STRING, description, true, values, null, null, DEFAULT_MAX_LENGTH);
    }

    public Param optional() {
        return new Param(name, type, description, false, allowed, minimum, maximum, maxLength);
    }

    public Param renamed(String newName) {
        return new Param(newName, type, description, required, allowed, minimum, maximum, maxLength);
    }

    public Param describedAs(String text) {
        return new Param(name, type, text, required, allowed, minimum, maximum, maxLength);
    }
}
