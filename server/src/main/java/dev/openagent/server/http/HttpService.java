package dev.openagent.server.http;

import dev.openagent.UserInputException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.websocket.server.WebSocketCreator;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;

/**
 * One HTTP/1.1 server (Jetty 12; handlers on virtual threads) with the Host and Origin check of
 * {@link Addressing}, an optional bearer-token check and an optional WebSocket route, a body that
 * must arrive within {@link #BODY_TIMEOUT}, and the guarantee that every failure becomes a JSON
 * error response: a handler's {@link ApiError} keeps its status, anything else is a 500 whose
 * cause is logged, and requests Jetty refuses before a handler sees them (a malformed request
 * line or chunked body, oversized headers, ambiguous lengths) get the same JSON shape from
 * {@link JsonErrorHandler}. The server keeps serving after each.
 */
public final class HttpService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HttpService.class);

    /** What the service does with one request (after the token check). */
    @FunctionalInterface
    public interface Endpoint {
        void handle(HttpCall call) throws IOException;
    }

    /**
     * A WebSocket route: upgrade requests on {@code path} get an endpoint from {@code creator}.
     *
     * @param maxMessageBytes a larger text message closes the connection with 1009 (message too big)
     * @param idleTimeout     a connection without a frame for this long is closed
     */
    public record WebSocketRoute(String path, WebSocketCreator creator, long maxMessageBytes, Duration idleTimeout) {}

    /** Connections open at once; more wait to be accepted. */
    static final int MAX_CONNECTIONS = 4096;
    /** An idle connection (between requests, or stalled in one) closes after this long. */
    static final Duration IDLE = Duration.ofSeconds(60);
    /** How long a request's body may take to arrive once its head has: a stalled upload gets 408 after this. */
    static final Duration BODY_TIMEOUT = Duration.ofSeconds(10);
    /** The request line and headers together. */
    static final int MAX_HEAD = 64 * 1024;
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT");

    private final Server server;
    private final ServerConnector connector;
    private volatile boolean closed;

    private HttpService(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    /**
     * Binds and starts.
     *
     * @param port 0 picks a free port (see {@link #port()})
     */
    public static HttpService start(String host, int port, BearerAuth auth, String name, Endpoint endpoint) throws IOException {
        return start(host, port, auth, Set.of(), name, endpoint, null);
    }

    /**
     * As {@link #start(String, int, BearerAuth, String, Endpoint)}, with a WebSocket route (or null).
     *
     * @param withoutToken paths answered without the token check (a health probe, which Kubernetes cannot give a token)
     */
    public static HttpService start(String host, int port, BearerAuth auth, Set<String> withoutToken, String name, Endpoint endpoint,
                                    WebSocketRoute socket) throws IOException {
        return start(host, port, auth, withoutToken, name, endpoint, socket, BODY_TIMEOUT, JsonHttp::sendError);
    }

    /**
     * How a request refused before any route (its Host or Origin, the token, the method) is answered: a JSON error by
     * default; a server of pages (the viewer) answers a page a browser shows.
     */
    public interface Refusal {
        void send(HttpCall call, ApiError e) throws IOException;
    }

    /** As {@link #start(String, int, BearerAuth, Set, String, Endpoint, WebSocketRoute)}, refusing requests with {@code refusal}. */
    public static HttpService start(String host, int port, BearerAuth auth, Set<String> withoutToken, String name, Endpoint endpoint,
                                    WebSocketRoute socket, Refusal refusal) throws IOException {
        return start(host, port, auth, withoutToken, name, endpoint, socket, BODY_TIMEOUT, refusal);
    }

    /** As above, with another body timeout (tests). */
    static HttpService start(String host, int port, BearerAuth auth, Set<String> withoutToken, String name, Endpoint endpoint,
                             WebSocketRoute socket, Duration bodyTimeout) throws IOException {
        return start(host, port, auth, withoutToken, name, endpoint, socket, bodyTimeout, JsonHttp::sendError);
    }

    private static HttpService start(String host, int port, BearerAuth auth, Set<String> withoutToken, String name, Endpoint endpoint,
                                     WebSocketRoute socket, Duration bodyTimeout, Refusal refusal) throws IOException {
        resolve(host);
        // Platform threads select and accept; every handler (and WebSocket message) runs on a
        // virtual thread, so a handler may block without holding one of the few platform threads.
        QueuedThreadPool threads = new QueuedThreadPool(32, 2);
        threads.setName(name);
        threads.setVirtualThreadsExecutor(Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name(name + "-", 0).factory()));
        Server server = new Server(threads);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setRequestHeaderSize(MAX_HEAD);
        // Jetty lets every URI through and Front refuses what Jetty's default would (a suspicious or ambiguous path):
        // refused there, a request's body is read and dropped before the answer, which a refusal inside Jetty cannot
        // do (its error handler sees no body), so the connection closed with the body unread was reset and a client
        // still sending it got no answer at all.
        http.setUriCompliance(UriCompliance.UNSAFE);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(IDLE.toMillis());
        connector.setReuseAddress(true);
        server.addConnector(connector);
        server.addBean(new NetworkConnectionLimit(MAX_CONNECTIONS, connector));
        server.setErrorHandler(new JsonErrorHandler());
        Handler routes = new Routes(endpoint, name, bodyTimeout);
        Handler inner = routes;
        if (socket != null) {
            WebSocketUpgradeHandler upgrade = WebSocketUpgradeHandler.from(server, container -> {
                container.setMaxTextMessageSize(socket.maxMessageBytes());
                container.setMaxBinaryMessageSize(socket.maxMessageBytes());
                container.setIdleTimeout(socket.idleTimeout());
                container.addMapping(socket.path(), socket.creator());
            });
            upgrade.setHandler(routes);
            inner = upgrade;
        }
        Front front = new Front(auth, Set.copyOf(withoutToken), isLoopback(host), bodyTimeout, refusal);
        front.setHandler(inner);
        server.setHandler(front);
        try {
            server.start();
        } catch (IOException e) {
            stopQuietly(server);
            throw e;
        } catch (Exception e) {
            stopQuietly(server);
            throw new IOException(e.getMessage(), e);
        }
        return new HttpService(server, connector);
    }

    private static void stopQuietly(Server server) {
        try {
            server.stop();
        } catch (Exception ignored) {
            // it did not start: nothing to stop
        }
    }

    private static void resolve(String host) {
        try {
            InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new UserInputException("cannot resolve host '" + host + "'");
        }
    }

    /**
     * The Host and Origin check ({@link Addressing}), the token check (except on the paths that need none) and the
     * method check, before any route (WebSocket upgrades included).
     */
    private static final class Front extends Handler.Wrapper {
        private final BearerAuth auth;
        private final Set<String> withoutToken;
        private final boolean loopbackOnly;
        private final Duration bodyTimeout;
        private final Refusal refusal;

        Front(BearerAuth auth, Set<String> withoutToken, boolean loopbackOnly, Duration bodyTimeout, Refusal refusal) {
            this.auth = auth;
            this.withoutToken = withoutToken;
            this.loopbackOnly = loopbackOnly;
            this.bodyTimeout = bodyTimeout;
            this.refusal = refusal;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            try {
                String badUri = UriCompliance.checkUriCompliance(UriCompliance.DEFAULT, request.getHttpURI(), null);
                if (badUri != null) throw new ApiError(400, "bad_request", badUri);
                Addressing.check(request.getHeaders().get(HttpHeader.HOST), request.getHeaders().get(HttpHeader.ORIGIN), loopbackOnly);
                if (!withoutToken.contains(request.getHttpURI().getPath())) auth.check(request.getHeaders().get(HttpHeader.AUTHORIZATION));
                if (!METHODS.contains(request.getMethod())) {
                    throw new ApiError(501, "not_implemented", "the method " + request.getMethod() + " is not implemented");
                }
            } catch (ApiError e) {
                if (e.status() == 401) response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
                refusal.send(new HttpCall(request, response, callback, bodyTimeout), e);
                return true;
            }
            return super.handle(request, response, callback);
        }
    }

    /** Runs the endpoint; turns whatever it throws into a JSON error. */
    private static final class Routes extends Handler.Abstract {
        private final Endpoint endpoint;
        private final String name;
        private final Duration bodyTimeout;

        Routes(Endpoint endpoint, String name, Duration bodyTimeout) {
            this.endpoint = endpoint;
            this.name = name;
            this.bodyTimeout = bodyTimeout;
        }

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            HttpCall call = new HttpCall(request, response, callback, bodyTimeout);
            try {
                endpoint.handle(call);
                if (!call.responded()) throw new IllegalStateException("the handler sent no response");
            } catch (ApiError e) {
                answer(call, e);
            } catch (IOException e) {
                call.abort(e);   // the client went away mid-request: nothing left to tell it
            } catch (RuntimeException e) {
                LOG.error("{}: internal error on {} {}: {}", name, call.method(), call.path(), e.toString());
                answer(call, new ApiError(500, "internal_error", "the server failed on this request"));
            }
            return true;
        }

        private static void answer(HttpCall call, ApiError e) {
            if (call.responded()) return;   // already answered: the connection carries on or fails on its own
            try {
                JsonHttp.sendError(call, e);
            } catch (IOException | RuntimeException x) {
                call.abort(x);
            }
        }
    }

    public int port() { return connector.getLocalPort(); }

    public String host() { return connector.getHost(); }

    /** The base URL, {@code http://host:port} (IPv6 hosts in brackets). */
    public String baseUrl() {
        String h = host();
        return "http://" + (h.contains(":") ? "[" + h + "]" : h) + ":" + port();
    }

    /** Stops accepting and closes every connection. Idempotent. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        stopQuietly(server);
    }

    /**
     * Whether a host name is literally a loopback address: {@code localhost}, 127.x.x.x or ::1.
     * No DNS lookup, so a name that merely resolves to 127.0.0.1 (DNS rebinding) does not count.
     */
    public static boolean isLoopback(String host) {
        if (host == null) return false;
        String h = host.strip().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) h = h.substring(1, h.length() - 1);
        if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) return true;
        return h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}
