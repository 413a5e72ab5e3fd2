package dev.openagent.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.JsonHttp;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import tools.jackson.core.JacksonException;

import java.util.Map;
import java.util.Set;

/**
 * Checks a JSON-RPC message before the MCP SDK sees it, so that malformed requests get the
 * JSON-RPC error the specification names with a short message, never a Java exception's text
 * (the SDK answers {@code tools/call} without params with a NullPointerException's message):
 * not JSON or not UTF-8: -32700; not a JSON-RPC 2.0 message: -32600; a known method with params
 * of the wrong shape, or params the SDK cannot read as its type for the method: -32602. Unknown methods are left
 * to the SDK, which answers -32601.
 */
public final class JsonRpcCheck {
    /** What a message needs in its params, per method: field name to its JSON kind; a trailing '?' marks it optional. */
    private static final Map<String, Map<String, String>> PARAMS = Map.ofEntries(
            Map.entry("initialize", Map.of("protocolVersion", "string", "capabilities", "object", "clientInfo", "object")),
            Map.entry("tools/call", Map.of("name", "string", "arguments?", "object")),
            Map.entry("prompts/get", Map.of("name", "string", "arguments?", "object")),
            Map.entry("resources/read", Map.of("uri", "string")),
            Map.entry("tools/list", Map.of("cursor?", "string")),
            Map.entry("prompts/list", Map.of("cursor?", "string")),
            Map.entry("resources/list", Map.of("cursor?", "string")),
            Map.entry("resources/templates/list", Map.of("cursor?", "string")),
            Map.entry("resources/subscribe", Map.of("uri", "string")),
            Map.entry("resources/unsubscribe", Map.of("uri", "string")),
            Map.entry("completion/complete", Map.of("ref", "object", "argument", "object")),
            Map.entry("logging/setLevel", Map.of("level", "string")));
    /** Methods whose params must be present (an object). */
    private static final Set<String> PARAMS_REQUIRED = Set.of("initialize", "tools/call", "prompts/get", "resources/read",
            "resources/subscribe", "resources/unsubscribe", "completion/complete", "logging/setLevel");
    /**
     * The SDK's type for each request's params. Params it cannot read as that type ({@code "_meta": "x"}, a
     * capability of the wrong shape) would be its -32603 with a Jackson message; here they are -32602 naming the field.
     */
    private static final Map<String, Class<?>> SDK_PARAMS = Map.ofEntries(
            Map.entry("initialize", McpSchema.InitializeRequest.class), Map.entry("tools/call", McpSchema.CallToolRequest.class),
            Map.entry("prompts/get", McpSchema.GetPromptRequest.class), Map.entry("resources/read", McpSchema.ReadResourceRequest.class),
            Map.entry("tools/list", McpSchema.PaginatedRequest.class), Map.entry("prompts/list", McpSchema.PaginatedRequest.class),
            Map.entry("resources/list", McpSchema.PaginatedRequest.class),
            Map.entry("resources/templates/list", McpSchema.PaginatedRequest.class),
            Map.entry("resources/subscribe", McpSchema.SubscribeRequest.class),
            Map.entry("resources/unsubscribe", McpSchema.UnsubscribeRequest.class),
            Map.entry("completion/complete", McpSchema.CompleteRequest.class), Map.entry("logging/setLevel", McpSchema.SetLevelRequest.class));

    /** A refused message: the JSON-RPC error to answer, and the request's id when it had a usable one. */
    public record Refusal(int code, String message, JsonNode id) {
        public ObjectNode response() {
            ObjectNode o = Json.object().put("jsonrpc", "2.0");
            if (id == null) o.putNull("id");
            else o.set("id", id);
            o.putObject("error").put("code", code).put("message", JsonHttp.oneLine(message));
            return o;
        }
    }

    private static final McpJsonMapper SDK_MAPPER = McpJsonDefaults.getMapper();

    private JsonRpcCheck() {}

    /** @return null when the message may go to the SDK */
    public static Refusal check(byte[] body) {
        ObjectNode message;
        try {
            message = JsonHttp.parseObject(body, false, "the message");
        } catch (ApiError e) {
            int code = e.code().equals("malformed_json") ? ErrorCodes.PARSE_ERROR : ErrorCodes.INVALID_REQUEST;
            String text = code == ErrorCodes.INVALID_REQUEST && body.length > 0 && firstNonBlank(body) == '['
                    ? "batches are not supported: send one JSON-RPC message per request" : e.getMessage();
            return new Refusal(code, text, null);
        }
        return check(message);
    }

    private static int firstNonBlank(byte[] body) {
        for (byte b : body) if (b != ' ' && b != '\n' && b != '\r' && b != '\t') return b;
        return -1;
    }

    static Refusal check(ObjectNode m) {
        JsonNode id = m.get("id");
        // An integer id must fit in 64 bits: the SDK's stdio session stops answering altogether after a larger one.
        JsonNode usableId = id != null && (id.isTextual() || (id.isIntegralNumber() && id.canConvertToLong())) ? id : null;
        if (!"2.0".equals(m.path("jsonrpc").asText(null)) || !m.path("jsonrpc").isTextual()) {
            return new Refusal(ErrorCodes.INVALID_REQUEST, "not a JSON-RPC 2.0 message: \"jsonrpc\" must be \"2.0\"", usableId);
        }
        if (id != null && !id.isNull() && usableId == null) {
            return new Refusal(ErrorCodes.INVALID_REQUEST, "\"id\" must be a string or a 64-bit integer", null);
        }
        JsonNode method = m.get("method");
        if (method == null) {
            if (m.has("result") || m.has("error")) return null;   // a response: the transport decides what to do with it
            return new Refusal(ErrorCodes.INVALID_REQUEST, "a JSON-RPC request needs \"method\"", usableId);
        }
        // MCP forbids a null request id (JSON-RPC allows it): the SDK's stdio session stopped answering after one.
        if (id != null && id.isNull()) {
            return new Refusal(ErrorCodes.INVALID_REQUEST, "\"id\" must be a string or a 64-bit integer (leave it out for a notification)", null);
        }
        if (!method.isTextual() || method.asText().isEmpty()) {
            return new Refusal(ErrorCodes.INVALID_REQUEST, "\"method\" must be a non-empty string", usableId);
        }
        String name = method.asText();
        JsonNode params = m.get("params");
        boolean absent = params == null || params.isNull();
        if (!absent && !params.isObject()) {
            return new Refusal(ErrorCodes.INVALID_PARAMS, name + ": params must be an object, not " + JsonHttp.kind(params), usableId);
        }
        Map<String, String> shape = PARAMS.get(name);
        if (shape == null) return absent ? null : sdkShape(name, params, usableId);
        if (absent) {
            return PARAMS_REQUIRED.contains(name) ? new Refusal(ErrorCodes.INVALID_PARAMS, name + " needs params " + describe(shape), usableId) : null;
        }
        for (var e : shape.entrySet()) {
            boolean optional = e.getKey().endsWith("?");
            String field = optional ? e.getKey().substring(0, e.getKey().length() - 1) : e.getKey();
            JsonNode v = params.get(field);
            if (v == null || v.isNull()) {
                if (optional) continue;
                return new Refusal(ErrorCodes.INVALID_PARAMS, name + " needs params." + field + " (" + e.getValue() + ")", usableId);
            }
            boolean ok = e.getValue().equals("string") ? v.isTextual() : v.isObject();
            if (!ok) {
                return new Refusal(ErrorCodes.INVALID_PARAMS, name + ": params." + field + " must be " + article(e.getValue())
                        + ", not " + JsonHttp.kind(v), usableId);
            }
        }
        return sdkShape(name, params, usableId);
    }

    /** Null when the SDK can read the params as its type for the method (or has none); else -32602 naming the field. */
    private static Refusal sdkShape(String method, JsonNode params, JsonNode id) {
        Class<?> type = SDK_PARAMS.get(method);
        if (type == null) return null;
        try {
            SDK_MAPPER.convertValue(Json.MAPPER.convertValue(params, Map.class), type);
            return null;
        } catch (RuntimeException e) {
            String field = fieldOf(e);
            return new Refusal(ErrorCodes.INVALID_PARAMS, method + ": " + (field == null ? "params do not fit the MCP schema of " + method
                    : "params." + field + " does not fit the MCP schema of " + method), id);
        }
    }

    /** The path of the field the SDK's reader failed on ({@code _meta}, {@code capabilities.roots}), or null. */
    private static String fieldOf(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof JacksonException j && !j.getPath().isEmpty()) {
                StringBuilder sb = new StringBuilder();
                for (JacksonException.Reference r : j.getPath()) {
                    if (r.getPropertyName() != null) sb.append(sb.isEmpty() ? "" : ".").append(r.getPropertyName());
                    else if (r.getIndex() >= 0) sb.append('[').append(r.getIndex()).append(']');
                }
                return sb.isEmpty() ? null : sb.toString();
            }
        }
        return null;
    }

    private static String describe(Map<String, String> shape) {
        StringBuilder sb = new StringBuilder("{");
        shape.keySet().stream().sorted().forEach(k -> sb.append(sb.length() > 1 ? ", " : "").append(k).append(": ").append(shape.get(k)));
        return sb.append('}').toString();
    }

    private static String article(String kind) { return kind.equals("object") ? "an object" : "a string"; }
}
