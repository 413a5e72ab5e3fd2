package dev.openagent.server.mcp;

import dev.openagent.server.http.Addressing;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.HttpCall;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * MCP's Streamable HTTP transport in its stateless form (the SDK ships only servlet transports):
 * one endpoint, {@code POST /mcp}, a JSON-RPC request in, its JSON response out; notifications
 * get 202. No server-initiated stream, so {@code GET} answers 405 as the specification allows.
 * DNS-rebinding protection ({@link Addressing}) is {@link HttpService}'s, as on every server.
 */
public final class StatelessHttpTransport implements McpStatelessServerTransport {
    private static final Logger LOG = LoggerFactory.getLogger(StatelessHttpTransport.class);

    public static final String PATH = "/mcp";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final McpJsonMapper mapper;
    private final long maxBodyBytes;
    private volatile McpStatelessServerHandler handler;

    public StatelessHttpTransport(McpJsonMapper mapper, long maxBodyBytes) {
        this.mapper = mapper;
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
        this.handler = handler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();   // the HTTP server is closed by its owner
    }

    /**
     * The checks every MCP request passes first (the proxy's transport makes them too): the endpoint's path, and
     * {@link Addressing}'s Host and Origin check, which {@link HttpService} also makes before any route.
     */
    public static void checkAddressed(HttpCall ex, boolean loopbackOnly) {
        checkPath(ex);
        Addressing.check(ex.header("Host"), ex.header("Origin"), loopbackOnly);
    }

    private static void checkPath(HttpCall ex) {
        if (!ex.path().equals(PATH)) {
            throw ApiError.notFound("not_found", "no route " + ex.path() + " (the MCP endpoint is POST " + PATH + ")");
        }
    }

    public void handle(HttpCall ex) throws IOException {
        checkPath(ex);   // Host and Origin: checked by HttpService before any route
        JsonHttp.requireMethod(ex, "POST");   // stateless: no server-sent stream to GET
        McpStatelessServerHandler h = handler;
        if (h == null) throw new ApiError(503, "not_ready", "the MCP server is starting");
        byte[] body = ex.body(maxBodyBytes);
        JsonRpcCheck.Refusal refused = JsonRpcCheck.check(body);
        if (refused != null) {
            // A request we can answer by its id gets a JSON-RPC response; anything else is a bad HTTP request.
            JsonHttp.sendJson(ex, refused.id() == null ? 400 : 200, refused.response());
            return;
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, new String(body, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            JsonHttp.sendJson(ex, 400, new JsonRpcCheck.Refusal(McpSchema.ErrorCodes.INVALID_REQUEST, "not a JSON-RPC request or notification", null).response());
            return;
        }
        McpTransportContext context = McpTransportContext.create(Map.of());
        switch (message) {
            case McpSchema.JSONRPCRequest request -> {
                McpSchema.JSONRPCResponse response;
                try {
                    response = h.handleRequest(context, request).block(REQUEST_TIMEOUT);
                } catch (RuntimeException e) {
                    response = internalError(request.id(), e);
                }
                if (response != null && response.error() != null && response.error().code() == McpSchema.ErrorCodes.INTERNAL_ERROR) {
                    response = internalError(request.id(), new IllegalStateException(response.error().message()));
                } else if (response != null && response.error() != null) {
                    // The SDK quotes what it was sent ("Method not found: " and the method) as it is: one line, as ours.
                    McpSchema.JSONRPCResponse.JSONRPCError e = response.error();
                    String line = JsonHttp.oneLine(e.message());
                    if (!line.equals(e.message())) {
                        response = McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(e.code(), line, e.data()));
                    }
                }
                JsonHttp.sendJson(ex, 200, mapper.writeValueAsBytes(response));
            }
            case McpSchema.JSONRPCNotification notification -> {
                h.handleNotification(context, notification).block(REQUEST_TIMEOUT);
                ex.respond(202, new byte[0], null);
            }
            default -> JsonHttp.sendJson(ex, 400, new JsonRpcCheck.Refusal(McpSchema.ErrorCodes.INVALID_REQUEST,
                    "this server sends no requests, so it expects no responses", null).response());
        }
    }

    /** -32603 with a short message; the cause goes to stderr, never to the client. */
    private static McpSchema.JSONRPCResponse internalError(Object id, Exception cause) {
        LOG.error("serve mcp: internal error: {}", cause.toString());
        return McpSchema.JSONRPCResponse.error(id, new McpSchema.JSONRPCResponse.JSONRPCError(
                McpSchema.ErrorCodes.INTERNAL_ERROR, "internal error: the server failed on this request"));
    }
}
