package dev.openagent.server.mcp;

import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.HttpService;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;

/**
 * How an MCP server built on the SDK is served and stopped, over stdio or stateless Streamable HTTP:
 * what {@code serve mcp} and {@code proxy mcp} share. Closing stops the HTTP service (if any), then the
 * SDK server, and releases {@link #awaitInputClosed()}; it is idempotent.
 */
public final class McpServing implements AutoCloseable {
    private final Runnable closeServer;
    private final HttpService http;
    private final CountDownLatch inputClosed;
    private volatile boolean closed;

    private McpServing(Runnable closeServer, HttpService http, CountDownLatch inputClosed) {
        this.closeServer = closeServer;
        this.http = http;
        this.inputClosed = inputClosed;
    }

    /** Served over stdin/stdout; {@code eof} is counted down by the {@link StdioGate} when the client closes stdin. */
    public static McpServing stdio(Runnable closeServer, CountDownLatch eof) {
        return new McpServing(closeServer, null, eof);
    }

    /**
     * Starts the HTTP service for {@code transport} at {@code http://host:port/mcp}; when it cannot start,
     * the SDK server is closed ({@code closeOnFailure}) and the error goes to the caller.
     */
    public static McpServing http(StatelessHttpTransport transport, String host, int port, BearerAuth auth, String name,
                                  Runnable closeServer, Runnable closeOnFailure) throws IOException {
        return http(transport::handle, host, port, auth, name, closeServer, closeOnFailure);
    }

    /** As above, for an MCP endpoint of one's own (the proxy's, which keeps a session per client). */
    public static McpServing http(HttpService.Endpoint endpoint, String host, int port, BearerAuth auth, String name,
                                  Runnable closeServer, Runnable closeOnFailure) throws IOException {
        HttpService service;
        try {
            service = HttpService.start(host, port, auth, name, endpoint);
        } catch (IOException | RuntimeException e) {
            closeOnFailure.run();
            throw e;
        }
        return new McpServing(closeServer, service, new CountDownLatch(1));
    }

    /** The HTTP port, or -1 for stdio. */
    public int port() { return http == null ? -1 : http.port(); }

    /** The endpoint, or "stdio". */
    public String url() { return http == null ? "stdio" : http.baseUrl() + StatelessHttpTransport.PATH; }

    public boolean closed() { return closed; }

    /** Blocks until stdin reaches its end (stdio) or {@link #close()} is called. */
    public void awaitInputClosed() throws InterruptedException { inputClosed.await(); }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            if (http != null) http.close();
            closeServer.run();
        } finally {
            inputClosed.countDown();
        }
    }
}
