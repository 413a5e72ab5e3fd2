package dev.openagent.domain;

import dev.openagent.sandbox.ToolError;

/**
 * Thrown by a tool behaviour (or the validator) to refuse a call; becomes an error observation.
 * It carries no stack trace: it is control flow on the hot path, not a bug.
 */
public final class ToolFailure extends RuntimeException {
    private final ToolError.Code code;

    public ToolFailure(ToolError.Code code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    /** A domain refusal: unknown id, not available, wrong code... */
    public static ToolFailure domain(String message) {
        return new ToolFailure(ToolError.Code.DOMAIN, message);
    }

    public ToolError error() { return ToolError.of(code, getMessage()); }
}
