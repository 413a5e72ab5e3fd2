package dev.openagent.sandbox;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One thing the agent is told after its action: a tool result (answers a call id), a reply of the
 * simulated user, or an environment message (text-command environments, protocol notices).
 *
 * @param text    exactly what the agent reads
 * @param payload the structured value behind {@code text} where there is one (null otherwise)
 * @param error   null when the call succeeded
 */
public record Observation(Source source, String callId, String tool, String text, JsonNode payload, ToolError error) {
    public enum Source { TOOL, USER, ENV }

    public Observation {
        text = text == null ? "" : text;
    }

    public static Observation tool(String callId, String tool, String text, JsonNode payload) {
        return new Observation(Source.TOOL, callId, tool, text, payload, null);
    }

    public static Observation toolError(String callId, String tool, ToolError error) {
        return new Observation(Source.TOOL, callId, tool, "Error [" + error.code() + "]: " + error.message(), null, error);
    }

    public static Observation user(String text) {
        return new Observation(Source.USER, null, null, text, null, null);
    }

    public static Observation env(String text, JsonNode payload) {
        return new Observation(Source.ENV, null, null, text, payload, null);
    }

    public boolean isError() { return error != null; }

    public Observation withText(String newText) {
        return new Observation(source, callId, tool, newText, payload, error);
    }

    public Observation withPayload(JsonNode newPayload, String newText) {
        return new Observation(source, callId, tool, newText, newPayload, error);
    }

    public Observation withTool(String newTool) {
        return new Observation(source, callId, newTool, text, payload, error);
    }
}
