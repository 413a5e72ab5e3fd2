package dev.openagent.sandbox;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A tool as an agent is shown it: a name, a description and JSON-Schema parameters (an object
 * schema). Shifts rewrite these; the behaviour stays with the environment.
 */
public record ToolSpec(String name, String description, ObjectNode parameters) {
    public ToolSpec {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("tool name is blank");
        description = description == null ? "" : description;
        parameters = parameters.deepCopy();
    }

    /** The same tool under another name. */
    public ToolSpec withName(String newName) { return new ToolSpec(newName, description, parameters); }

    public ToolSpec withDescription(String text) { return new ToolSpec(name, text, parameters); }

    public ToolSpec withParameters(ObjectNode schema) { return new ToolSpec(name, description, schema); }

    /** Parameters are copied on construction; hand out copies so a ToolSpec stays immutable. */
    @Override
    public ObjectNode parameters() { return parameters.deepCopy(); }
}
