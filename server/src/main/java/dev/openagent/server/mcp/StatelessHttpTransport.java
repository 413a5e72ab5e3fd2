package dev.openagent.server.mcp;

import com.sun.net.httpserver.HttpExchange;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * MCP's Streamable HTTP transport in its stateless form, on the JDK HTTP server (the SDK ships
 * only servlet transports): one endpoint, {@code POST /mcp}, a JSON-RPC request in, its JSON
 * response out; notifications get 202. No server-initiated stream, so {@code GET} answers 405 as
 * the specification allows. Requests whose {@code Origin} is not a loopback page are refused
 * (DNS-rebinding protection).
 */
final class StatelessHttpTransport implements McpStatelessServerTransport {
    static final String PATH = "/mcp";
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final McpJsonMapper mapper;
    private final long maxBodyBytes;
    private volatile McpStatelessServerHandler handler;

    StatelessHttpTransport(McpJsonMapper mapper, long maxBodyBytes) {
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

    void handle(HttpExchange ex) throws IOException {
        if (!ex.getRequestURI().getRawPath().equals(PATH)) {
            throw ApiError.notFound("not_found", "no route " + ex.getRequestURI().getRawPath() + " (the MCP endpoint is POST " + PATH + ")");
        }
        JsonHttp.requireMethod(ex, "POST");   // stateless: no server-sent stream to GET
        String origin = ex.getRequestHeaders().getFirst("Origin");
        if (origin != null && !loopbackOrigin(origin)) {
            throw new ApiError(403, "forbidden_origin", "requests from origin " + origin + " are not accepted");
        }
        McpStatelessServerHandler h = handler;
        if (h == null) throw new ApiError(503, "not_ready", "the MCP server is starting");
        String body = new String(JsonHttp.readBody(ex, maxBodyBytes), StandardCharsets.UTF_8);
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(mapper, body);
        } catch (IOException | RuntimeException e) {
            rpcError(ex, McpSchema.ErrorCodes.PARSE_ERROR, "not a JSON-RPC message: " + e.getMessage());
            return;
        }
        McpTransportContext context = McpTransportContext.create(Map.of());
        switch (message) {
            case McpSchema.JSONRPCRequest request -> {
                McpSchema.JSONRPCResponse response;
                try {
                    response = h.handleRequest(context, request).block(REQUEST_TIMEOUT);
                } catch (RuntimeException e) {
                    response = McpSchema.JSONRPCResponse.error(request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(
                            McpSchema.ErrorCodes.INTERNAL_ERROR, String.valueOf(e.getMessage())));
                }
                sendRpc(ex, 200, response);
            }
            case McpSchema.JSONRPCNotification notification -> {
                h.handleNotification(context, notification).block(REQUEST_TIMEOUT);
                JsonHttp.send(ex, 202, new byte[0], null);
            }
            default -> rpcError(ex, McpSchema.ErrorCodes.INVALID_REQUEST, "this server sends no requests, so it expects no responses");
        }
    }

    private void sendRpc(HttpExchange ex, int status, McpSchema.JSONRPCResponse response) throws IOException {
        JsonHttp.send(ex, status, mapper.writeValueAsBytes(response), JsonHttp.JSON_TYPE);
    }

    /** A JSON-RPC error without a request id (the SDK's response type requires one), as a 400. */
    private static void rpcError(HttpExchange ex, int code, String message) throws IOException {
        var body = dev.openagent.json.Json.object().put("jsonrpc", "2.0").putNull("id");
        body.putObject("error").put("code", code).put("message", message);
        JsonHttp.sendJson(ex, 400, body);
    }

    private static boolean loopbackOrigin(String origin) {
        try {
            String host = URI.create(origin).getHost();
            return HttpService.isLoopback(host);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
