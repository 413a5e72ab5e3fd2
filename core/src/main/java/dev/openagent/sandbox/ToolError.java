package dev.openagent.sandbox;

/**
 * Why a tool call failed. The code is stable and machine-readable (the failure taxonomy and the
 * tool error rate read it); the message is what the agent is told.
 */
public record ToolError(Code code, String message) {
    public enum Code {
        /** No tool of that name in the current tool list. */
        UNKNOWN_TOOL,
        /** Arguments are not a JSON object. */
        MALFORMED_ARGUMENTS,
        /** Well-formed JSON that does not fit the schema: missing, extra, wrong type, out of range, too long. */
        INVALID_ARGUMENTS,
        /** The call was valid but the domain says no (unknown id, not available, wrong code...). */
        DOMAIN,
        /** A transient infrastructure failure (timeout, 503, rate limit): retrying may succeed. */
        TRANSIENT,
        /** The tool is deprecated or gone. */
        UNAVAILABLE,
        /** The action kind does not fit this environment (for example a command in a function-call env). */
        UNSUPPORTED_ACTION
    }

    public static ToolError of(Code code, String message) { return new ToolError(code, message); }
}
