package dev.openagent.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One JDK {@link HttpServer} with a virtual thread per request, a bearer-token check, and the
 * guarantee that every failure becomes a JSON error response: a handler's {@link ApiError} keeps
 * its status, anything else is a 500 whose message is logged, and the server keeps serving.
 * Keep-alive works because every response carries its length.
 */
public final class HttpService implements AutoCloseable {
    /** What the service does with one request (after the token check). */
    @FunctionalInterface
    public interface Endpoint {
        void handle(HttpExchange exchange) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor;
    private volatile boolean closed;

    private HttpService(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds and starts.
     *
     * @param port 0 picks a free port (see {@link #port()})
     */
    public static HttpService start(String host, int port, BearerAuth auth, String name, Endpoint endpoint) throws IOException {
        // Read by the JDK when its first HttpServer is created (a user's -D setting wins):
        // small JSON responses go out at once instead of waiting for Nagle's algorithm; a client
        // gets 30 s to send a request, idle keep-alive connections close after 60 s, and at most
        // 4096 connections are open at once (more wait to be accepted).
        defaultProperty("sun.net.httpserver.nodelay", "true");
        defaultProperty("jdk.httpserver.maxConnections", "4096");
        defaultProperty("sun.net.httpserver.maxReqTime", "30");
        defaultProperty("sun.net.httpserver.idleInterval", "60");
        InetSocketAddress address = new InetSocketAddress(resolve(host), port);
        HttpServer server = HttpServer.create(address, 1024);
        ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-", 0).factory());
        server.setExecutor(executor);
        server.createContext("/", exchange -> guard(exchange, auth, endpoint, name));
        server.start();
        return new HttpService(server, executor);
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) System.setProperty(key, value);
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

    public int port() { return server.getAddress().getPort(); }

    public String host() { return server.getAddress().getHostString(); }

    /** Stops accepting, gives requests in flight up to a second to finish, then stops. Idempotent. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        server.stop(1);
        executor.shutdownNow();
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
