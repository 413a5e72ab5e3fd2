package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.byo.McpConnection;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import dev.openagent.server.mcp.JsonRpcCheck;
import dev.openagent.sandbox.ToolSpec;
import io.modelcontextprotocol.spec.McpSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * What the proxy answers to each MCP request of a client session, over either transport: {@code initialize}
 * with the upstream's capabilities, {@code tools/list} and {@code tools/call} through the session's shift stack,
 * and every other request the upstream answers ({@link McpConnection#FORWARDED}: prompts, resources, completion,
 * logging level, ping) passed on unchanged, its result or its JSON-RPC error included. Requests arrive already
 * checked for shape ({@code JsonRpcCheck}: -32700, -32600, -32602); an unknown method is -32601, a tool the
 * client was not shown -32602, and an upstream that failed {@value #UPSTREAM_FAILED}. Messages are short and
 * never a Java exception's text.
 */
public final class ProxyProtocol {
    private static final Logger LOG = LoggerFactory.getLogger(ProxyProtocol.class);

    public static final String NAME = "openagent-proxy";
    public static final String VERSION = "0.1.0";
    /**
     * The JSON-RPC error code of a request the upstream failed on: in the range JSON-RPC reserves for server errors,
     * and not -32603 (internal error), which is ours.
     */
    public static final int UPSTREAM_FAILED = -32000;
    /** The protocol revisions the proxy speaks; a client asking for another gets the newest. */
    static final List<String> VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");

    private ProxyProtocol() {}

    /** A JSON-RPC error to answer with. */
    static final class Refused extends RuntimeException {
        final int code;

        Refused(int code, String message) {
            super(message);
            this.code = code;
        }
    }

    /**
     * The response to one request (a JSON-RPC message with an id and a method), or null when the client cancelled
     * it meanwhile ({@code notifications/cancelled}, {@link #cancel}): a cancelled request gets no response.
     */
    public static ObjectNode answer(ProxySession session, JsonNode request) {
        JsonNode id = request.get("id");
        session.begin(id);
        ObjectNode answer = respond(session, request);
        return session.answered(id) ? null : answer;
    }

    /** A client's {@code notifications/cancelled}: its request gets no response, and a tool call is cancelled upstream too. */
    public static void cancel(ProxySession session, JsonNode notification) {
        JsonNode params = notification.path("params");
        session.cancel(params.get("requestId"), params.path("reason").asText(null));
    }

    private static ObjectNode respond(ProxySession session, JsonNode request) {
        JsonNode id = request.get("id");
        try {
            return result(id, handle(session, request.path("method").asText(), request.get("params"), id));
        } catch (Refused r) {
            return error(id, r.code, r.getMessage());
        } catch (McpConnection.RemoteError e) {
            return error(id, e.code(), e.getMessage());
        } catch (ProxySession.UpstreamFailure e) {
            return error(id, UPSTREAM_FAILED, e.getMessage());
        } catch (InfrastructureException e) {
            return error(id, UPSTREAM_FAILED, "the upstream MCP server failed: " + e.getMessage() + "; it is restarted on the next request");
        } catch (RuntimeException e) {
            LOG.error("proxy mcp: internal error on {}: {}", request.path("method").asText(), e.toString());
            return error(id, McpSchema.ErrorCodes.INTERNAL_ERROR, "internal error: the proxy failed on this request");
        }
    }

    private static JsonNode handle(ProxySession session, String method, JsonNode params, JsonNode id) {
        return switch (method) {
            case "initialize" -> initialize(session, params);
            case "ping" -> Json.object();
            case "tools/list" -> {
                ArrayNode tools = Json.array();
                for (ToolSpec t : session.tools()) tools.addObject().put("name", t.name()).put("description", t.description()).set("inputSchema", t.parameters());
                ObjectNode r = Json.object();
                r.set("tools", tools);
                yield r;
            }
            case "tools/call" -> call(session, params, id);
            default -> {
                if (!McpConnection.FORWARDED.contains(method)) throw new Refused(McpSchema.ErrorCodes.METHOD_NOT_FOUND, "method not found: " + method);
                yield session.upstream().request(method, params);
            }
        };
    }

    private static JsonNode initialize(ProxySession session, JsonNode params) {
        session.client(params.path("clientInfo").path("name").asText(null));
        String asked = params.path("protocolVersion").asText("");
        JsonNode upstream = session.upstream().capabilities();
        ObjectNode caps = Json.object();
        // What the upstream offers besides tools is passed on as it is; tools are the proxy's (shifted).
        for (String kept : List.of("prompts", "resources", "logging", "completions")) {
            if (upstream.hasNonNull(kept)) caps.set(kept, upstream.get(kept));
        }
        caps.putObject("tools").put("listChanged", upstream.path("tools").path("listChanged").asBoolean(false));
        ObjectNode r = Json.object().put("protocolVersion", VERSIONS.contains(asked) ? asked : VERSIONS.getFirst());
        r.set("capabilities", caps);
        r.putObject("serverInfo").put("name", NAME).put("version", VERSION);
        String instructions = session.upstream().instructions();
        if (instructions != null) r.put("instructions", instructions);
        return r;
    }

    @SuppressWarnings("unchecked")
    private static JsonNode call(ProxySession session, JsonNode params, JsonNode id) {
        String name = params.path("name").asText();
        JsonNode given = params.get("_meta");
        if (given != null && !given.isNull()) {
            if (!given.isObject()) throw new Refused(McpSchema.ErrorCodes.INVALID_PARAMS, "params._meta must be an object");
            JsonNode token = given.get("progressToken");
            // MCP: a progress token is a string or an integer; anything else, forwarded, can leave the upstream silent.
            if (token != null && !token.isTextual() && !token.isIntegralNumber()) {
                throw new Refused(McpSchema.ErrorCodes.INVALID_PARAMS, "params._meta.progressToken must be a string or an integer");
            }
        }
        Map<String, Object> arguments = params.path("arguments").isObject() ? Json.MAPPER.convertValue(params.get("arguments"), Map.class) : Map.of();
        Map<String, Object> meta = params.path("_meta").isObject() ? Json.MAPPER.convertValue(params.get("_meta"), Map.class) : null;
        ProxySession.Reply reply = session.call(name, arguments, meta, id);
        // The engine judges the name (a shift may have added tools mid-session, as tool.set-change does); one it
        // does not know is a protocol error, as MCP servers answer it (recorded all the same).
        if (reply.unknownTool()) throw new Refused(McpSchema.ErrorCodes.INVALID_PARAMS, "Unknown tool: " + abbreviate(name));
        ObjectNode r = Json.object();
        r.putArray("content").addObject().put("type", "text").put("text", reply.text());
        r.put("isError", reply.error());
        return r;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0");
        o.set("id", id);
        o.set("result", result);
        return o;
    }

    static ObjectNode error(JsonNode id, int code, String message) {
        return new JsonRpcCheck.Refusal(code, message, id).response();
    }

    /** A notification to the client. */
    static ObjectNode notification(McpConnection.Notification n) {
        ObjectNode o = Json.object().put("jsonrpc", "2.0").put("method", n.method());
        if (n.params() != null) o.set("params", n.params());
        return o;
    }
}
