package dev.openagent.proxy;

import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.mcp.McpEnvServer;
import dev.openagent.server.mcp.McpServing;
import dev.openagent.server.mcp.StatelessHttpTransport;
import dev.openagent.server.mcp.StdioGate;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code openagent proxy mcp}: a {@link ProxySession}'s shifted tools served with the MCP Java SDK, over stdio or
 * stateless Streamable HTTP on the loopback interface, as {@code serve mcp} serves an environment. A tool's own
 * error (and every error a shift makes) is a tool result with {@code isError}; an upstream that crashed is a
 * JSON-RPC error ({@value #UPSTREAM_FAILED}), and the upstream is restarted on the next call.
 */
public final class ProxyServer implements AutoCloseable {
    public static final String NAME = "openagent-proxy";
    public static final String VERSION = "0.1.0";
    /**
     * The JSON-RPC error code of a call the upstream failed on: in the range JSON-RPC reserves for server errors,
     * and not -32603, whose message the transports replace with a generic one (it may hold Java exception text).
     */
    public static final int UPSTREAM_FAILED = -32000;

    private final ProxySession session;
    private final McpServing serving;

    private ProxyServer(ProxySession session, McpServing serving) {
        this.session = session;
        this.serving = serving;
    }

    public static ProxyServer stdio(ProxySession session, InputStream in, OutputStream out) {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        CountDownLatch eof = new CountDownLatch(1);
        StdioGate gate = new StdioGate(in, out, eof);
        McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(mapper, gate.input, gate.output))
                .serverInfo(NAME, VERSION)
                .jsonMapper(mapper)
                .validateToolInputs(false)          // bad arguments are the shifted environment's to judge
                .strictToolNameValidation(false)    // shifted names may use characters the SDK's check rejects
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(session.tools().stream().map(t -> McpServerFeatures.SyncToolSpecification.builder().tool(McpEnvServer.tool(t))
                        .callHandler((ex, req) -> {
                            session.client(ex.getClientInfo() == null ? null : ex.getClientInfo().name());
                            return call(session, req);
                        }).build()).toList())
                .build();
        return new ProxyServer(session, McpServing.stdio(server::closeGracefully, eof));
    }

    /** Serves stateless Streamable HTTP at {@code http://host:port/mcp}. */
    public static ProxyServer http(ProxySession session, String host, int port, BearerAuth auth, long maxBodyBytes) throws IOException {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        StatelessHttpTransport transport = new StatelessHttpTransport(mapper, maxBodyBytes, HttpService.isLoopback(host));
        McpStatelessSyncServer server = McpServer.sync(transport)
                .serverInfo(NAME, VERSION)
                .jsonMapper(mapper)
                .validateToolInputs(false)
                .strictToolNameValidation(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .tools(session.tools().stream().map(t -> McpStatelessServerFeatures.SyncToolSpecification.builder().tool(McpEnvServer.tool(t))
                        .callHandler((ctx, req) -> call(session, req)).build()).toList())
                .build();
        return new ProxyServer(session, McpServing.http(transport, host, port, auth, "proxy-mcp", server::closeGracefully, server::close));
    }

    public ProxySession session() { return session; }

    /** The endpoint, or "stdio". */
    public String url() { return serving.url(); }

    /** Blocks until stdin reaches its end (stdio) or {@link #close()} is called. */
    public void awaitInputClosed() throws InterruptedException { serving.awaitInputClosed(); }

    @Override
    public void close() { serving.close(); }

    private static McpSchema.CallToolResult call(ProxySession session, McpSchema.CallToolRequest request) {
        ProxySession.Reply reply;
        try {
            reply = session.call(request.name(), request.arguments());
        } catch (ProxySession.UpstreamFailure e) {
            throw McpError.builder(UPSTREAM_FAILED).message(e.getMessage()).build();
        }
        return McpSchema.CallToolResult.builder().addTextContent(reply.text()).isError(reply.error()).build();
    }
}
