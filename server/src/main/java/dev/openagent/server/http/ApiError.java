package dev.openagent.server.http;

/**
 * A request the server refuses: answered as {@code {"error": {"code", "message"}}} with an HTTP
 * status. Handlers throw it; {@link JsonHttp} turns it into the response, so no bad input ever
 * reaches the client as a stack trace.
 */
public final class ApiError extends RuntimeException {
    private final int status;
    private final String code;

    public ApiError(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    public int status() { return status; }

    public String code() { return code; }

    /** 400: the request is malformed or its fields have the wrong type or value. */
    public static ApiError invalid(String message) { return new ApiError(400, "invalid_request", message); }

    public static ApiError notFound(String code, String message) { return new ApiError(404, code, message); }

    public static ApiError conflict(String code, String message) { return new ApiError(409, code, message); }
}
