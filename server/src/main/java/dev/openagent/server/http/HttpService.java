package dev.openagent.server.http;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP/1.1 server ({@link Http11Server}: a thread per keep-alive connection) with a
 * bearer-token check, and the guarantee that every failure becomes a JSON error response: a
 * handler's {@link ApiError} keeps its status, anything else is a 500 whose message is logged,
 * and the server keeps serving. Keep-alive works because every response carries its length.
 */
public final class HttpService implements AutoCloseable {
    /** What the service does with one request (after the token check). */
    @FunctionalInterface
    public interface Endpoint {
        void handle(HttpExchange exchange) throws IOException;
    }

    /** Connections open at once; more wait to be accepted. */
    static final int MAX_CONNECTIONS = 4096;
    /** A client has this long to send a request once its first byte arrived. */
    static final long REQUEST_SECONDS = 30;
    /** An idle keep-alive connection closes after this long. */
    static final long IDLE_SECONDS = 60;

    private final Http11Server server;
    private volatile boolean closed;

    private HttpService(Http11Server server) {
        this.server = server;
    }

    /**
     * Binds and starts.
     *
     * @param port 0 picks a free port (see {@link #port()})
     */
    public static HttpService start(String host, int port, BearerAuth auth, String name, Endpoint endpoint) throws IOException {
        InetSocketAddress address = new InetSocketAddress(resolve(host), port);
        Http11Server server = new Http11Server(address, 1024, MAX_CONNECTIONS, TimeUnit.SECONDS.toNanos(IDLE_SECONDS),
                TimeUnit.SECONDS.toNanos(REQUEST_SECONDS), connectionThreads(name), name,
                exchange -> guard(exchange, auth, endpoint, name));
        return new HttpService(server);
    }

    /**
     * A virtual thread per connection: thousands of idle keep-alive connections cost next to
     * nothing, and a handler may block (a model's forward pass, an MCP tool call) without holding
     * a platform thread. (Measured on the load bench, platform threads were no cheaper per request.)
     */
    private static ThreadFactory connectionThreads(String name) {
        return Thread.ofVirtual().name(name + "-", 0).factory();
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "'");
        }
    }

    private static void guard(HttpExchange exchange, BearerAuth auth, Endpoint endpoint, String name) {
        try (exchange) {
            try {
                auth.check(exchange);
                endpoint.handle(exchange);
            } catch (ApiError e) {
                JsonHttp.sendError(exchange, e);
            } catch (RuntimeException e) {
                System.err.println(name + ": internal error on " + exchange.getRequestMethod() + " "
                        + exchange.getRequestURI().getRawPath() + ": " + e);
                JsonHttp.sendError(exchange, new ApiError(500, "internal_error",
                        "the server failed on this request: " + e.getClass().getSimpleName()
                                + (e.getMessage() == null ? "" : ": " + e.getMessage())));
            }
        } catch (IOException | RuntimeException e) {
            // The client went away (or headers were already sent): nothing left to tell it.
        }
    }

    public int port() { return server.address().getPort(); }

    public String host() { return server.address().getHostString(); }

    /** Stops accepting, gives requests in flight up to a second to finish, then stops. Idempotent. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        server.stop(1000);
    }

    /**
     * Whether a host name is literally a loopback address: {@code localhost}, 127.x.x.x or ::1.
     * No DNS lookup, so a name that merely resolves to 127.0.0.1 (DNS rebinding) does not count.
     */
    public static boolean isLoopback(String host) {
        if (host == null) return false;
        String h = host.strip().toLowerCase(java.util.Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
        if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) return true;
        return h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
