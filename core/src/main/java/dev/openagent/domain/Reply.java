package dev.openagent.domain;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.ToolError;

/**
 * What a command produced: the prose the agent reads, an optional structured payload (for example
 * a completion code the gold plan's answer reads) and an error when the command failed.
 */
public record Reply(String text, JsonNode payload, ToolError error) {
    public static Reply ok(String text) { return new Reply(text, null, null); }

    public static Reply ok(String text, JsonNode payload) { return new Reply(text, payload, null); }

    /** A command the world refused ("There is no fridge here."): counted in the tool error rate. */
    public static Reply error(String text) { return new Reply(text, null, ToolError.of(ToolError.Code.DOMAIN, text)); }

    /** A command that could not be understood at all. */
    public static Reply unknown(String text) { return new Reply(text, null, ToolError.of(ToolError.Code.UNKNOWN_TOOL, text)); }

    /** A known verb used without the names it needs. */
    public static Reply malformed(String text) { return new Reply(text, null, ToolError.of(ToolError.Code.INVALID_ARGUMENTS, text)); }

    public boolean failed() { return error != null; }
}
