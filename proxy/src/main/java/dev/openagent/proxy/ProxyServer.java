package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.byo.McpConnection;
import dev.openagent.json.Json;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.HttpCall;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;
import dev.openagent.server.mcp.JsonRpcCheck;
import dev.openagent.server.mcp.McpServing;
import dev.openagent.server.mcp.StatelessHttpTransport;
import dev.openagent.server.mcp.StdioGate;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@code openagent proxy mcp}: client sessions of a {@link SessionPool} served over stdio (one session) or
 * Streamable HTTP on the loopback interface (a session per {@code Mcp-Session-Id}), each request answered by
 * {@link ProxyProtocol}. Over stdio, requests are handled concurrently (a slow tool call does not hold up a ping
 * or a prompt), a {@code notifications/cancelled} request gets no response, and the upstream's notifications
 * (logging, progress, list and resource changes) are passed on. Over HTTP a tool call from a client that accepts
 * an event stream is answered as one, carrying its progress (and, when the session has no GET stream, the
 * upstream's other notifications) while it runs; other requests are answered with JSON; a client's GET stream
 * carries the upstream's notifications between calls. A cancelled request gets no response (and a cancelled tool
 * call is cancelled upstream).
 */
public final class ProxyServer implements AutoCloseable {
    public static final int UPSTREAM_FAILED = ProxyProtocol.UPSTREAM_FAILED;
    /** The header that names a client's session over HTTP. */
    public static final String SESSION_HEADER = "Mcp-Session-Id";

    private final SessionPool pool;
    private final McpServing serving;

    /** Set when serving stops: the GET event streams end. */
    private final AtomicBoolean closed;

    private ProxyServer(SessionPool pool, McpServing serving, AtomicBoolean closed) {
        this.pool = pool;
        this.serving = serving;
        this.closed = closed;
    }

    /** Serves one session on stdin/stdout until stdin ends; the session is opened now (its shifts checked). */
    public static ProxyServer stdio(SessionPool pool, InputStream in, OutputStream out) {
        ProxySession session = pool.open().getValue();
        CountDownLatch eof = new CountDownLatch(1);
        StdioGate gate = new StdioGate(in, out, eof);
        StdioLoop loop = new StdioLoop(session, gate);
        Thread reader = new Thread(loop::run, "proxy-stdio");
        reader.setDaemon(true);
        reader.start();
        return new ProxyServer(pool, McpServing.stdio(loop::close, eof), new AtomicBoolean());
    }

    /** Serves Streamable HTTP at {@code http://host:port/mcp}, a session per client. */
    public static ProxyServer http(SessionPool pool, String host, int port, BearerAuth auth, long maxBodyBytes) throws IOException {
        return http(pool, host, port, auth, maxBodyBytes, null);
    }

    /** As above, with {@code GET /metrics} answering {@code metrics} (Prometheus' text format; null: no such route). */
    public static ProxyServer http(SessionPool pool, String host, int port, BearerAuth auth, long maxBodyBytes,
                                   java.util.function.Supplier<String> metrics) throws IOException {
        HttpEndpoint endpoint = new HttpEndpoint(pool, maxBodyBytes, HttpService.isLoopback(host), new AtomicBoolean(), metrics);
        return new ProxyServer(pool, McpServing.http(endpoint::handle, host, port, auth, "proxy-mcp", () -> endpoint.closed().set(true), () -> {}), endpoint.closed());
    }


    /** The only session (stdio), or the first open one. */
    public ProxySession session() { return pool.sessions().getFirst(); }

    /** The endpoint, or "stdio". */
    public String url() { return serving.url(); }

    /** Blocks until stdin reaches its end (stdio) or {@link #close()} is called. */
    public void awaitInputClosed() throws InterruptedException { serving.awaitInputClosed(); }

    /** Stops serving; the sessions stay open (the pool's owner ends and records them). */
    @Override
    public void close() {
        closed.set(true);
        serving.close();
    }

    /** Reads the client's lines (checked by the gate) and answers each request on a thread of its own. */
    private static final class StdioLoop {
        private final ProxySession session;
        private final StdioGate gate;
        private final ExecutorService workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "proxy-request");
            t.setDaemon(true);
            return t;
        });
        private final Consumer<McpConnection.Notification> notifications;

        StdioLoop(ProxySession session, StdioGate gate) {
            this.session = session;
            this.gate = gate;
            this.notifications = n -> write(ProxyProtocol.notification(n));
            session.onNotification(notifications);
        }

        void run() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(gate.input, StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    JsonNode m = Json.parse(line);
                    JsonNode id = m.get("id");
                    String method = m.path("method").asText(null);
                    if (method == null) continue;                       // a response: the proxy sends the client no requests
                    if (id == null || id.isNull()) {
                        if (method.equals("notifications/cancelled")) ProxyProtocol.cancel(session, m);
                        continue;                                       // initialized, roots changed: nothing to answer
                    }
                    session.begin(id);   // now, so a cancellation read before its worker starts still finds it
                    workers.submit(() -> {
                        ObjectNode answer = ProxyProtocol.answer(session, m);
                        if (answer != null) write(answer);              // a cancelled request gets no response
                    });
                }
            } catch (IOException | UncheckedIOException e) {
                // stdin failed: the gate has counted down, and the command stops
            }
        }

        private synchronized void write(ObjectNode message) {   // responses and notifications come from several threads: one line at a time
            byte[] line = (Json.write(message) + "\n").getBytes(StandardCharsets.UTF_8);
            try {
                gate.output.write(line);
                gate.output.flush();
            } catch (IOException e) {
                // the client is gone: stdin ends next
            }
        }

        void close() {
            session.removeListener(notifications);
            workers.shutdownNow();
        }
    }

    /**
     * POST /mcp: initialize opens a session and names it in {@value #SESSION_HEADER}; GET opens the session's event
     * stream of the upstream's notifications between calls; DELETE ends it.
     */
    private record HttpEndpoint(SessionPool pool, long maxBodyBytes, boolean loopbackOnly, AtomicBoolean closed,
                                java.util.function.Supplier<String> metrics) {
        void handle(HttpCall ex) throws IOException {
            if (metrics != null && ex.path().equals("/metrics") && ex.method().equals("GET")) {
                ex.respond(200, metrics.get().getBytes(StandardCharsets.UTF_8), "text/plain; version=0.0.4; charset=utf-8");
                return;
            }
            StatelessHttpTransport.checkAddressed(ex, loopbackOnly);
            String sessionId = ex.header(SESSION_HEADER);
            if (ex.method().equals("DELETE")) {
                if (sessionId == null || !pool.close(sessionId)) throw ApiError.notFound("no_session", "no open session " + sessionId);
                ex.respond(204, new byte[0], null);
                return;
            }
            if (ex.method().equals("GET")) {
                eventStream(ex, sessionId);
                return;
            }
            JsonHttp.requireMethod(ex, "POST", "GET", "DELETE");
            byte[] body = ex.body(maxBodyBytes);
            JsonRpcCheck.Refusal refused = JsonRpcCheck.check(body);
            if (refused != null) {
                JsonHttp.sendJson(ex, refused.id() == null ? 400 : 200, refused.response());
                return;
            }
            JsonNode m = Json.parse(new String(body, StandardCharsets.UTF_8));
            JsonNode id = m.get("id");
            String method = m.path("method").asText(null);
            if (method == null) throw new ApiError(400, "unexpected_response", "this server sends no requests, so it expects no responses");
            ProxySession session;
            if (method.equals("initialize")) {
                Map.Entry<String, ProxySession> opened;
                try {
                    opened = pool.open();
                } catch (SessionPool.Full e) {
                    JsonHttp.sendJson(ex, 200, ProxyProtocol.error(id, UPSTREAM_FAILED, e.getMessage()));
                    return;
                }
                ex.setHeader(SESSION_HEADER, opened.getKey());
                session = opened.getValue();
            } else {
                if (sessionId == null) throw new ApiError(400, "no_session", "send " + SESSION_HEADER + " (from the initialize response) with every request");
                session = pool.get(sessionId);
                // 404 tells a client its session is gone (closed or idle): it initializes again.
                if (session == null) throw ApiError.notFound("no_session", "no open session " + sessionId + ": initialize again");
            }
            if (id == null || id.isNull()) {
                if (method.equals("notifications/cancelled")) ProxyProtocol.cancel(session, m);
                ex.respond(202, new byte[0], null);
                return;
            }
            String accept = ex.header("Accept");
            if (method.equals("tools/call") && accept != null && accept.contains("text/event-stream")) {
                streamCall(ex, session, m);
                return;
            }
            ObjectNode answer = ProxyProtocol.answer(session, m);
            // A request the client cancelled gets no JSON-RPC response: the HTTP request is accepted, without a body.
            if (answer == null) ex.respond(202, new byte[0], null);
            else JsonHttp.sendJson(ex, 200, answer);
        }

        /**
         * GET /mcp with the session's id and {@code Accept: text/event-stream}: the stream on which the session is sent
         * the upstream's notifications between calls (logging, list changes, resource updates), as the Streamable
         * HTTP transport lets a client listen. It stays open until the client goes, the session ends or the proxy
         * stops. Progress goes on the stream of its call instead.
         */
        private void eventStream(HttpCall ex, String sessionId) throws IOException {
            String accept = ex.header("Accept");
            if (accept == null || !accept.contains("text/event-stream")) {
                throw new ApiError(406, "not_acceptable", "GET " + ex.path() + " is the session's event stream: send Accept: text/event-stream");
            }
            if (sessionId == null) throw new ApiError(400, "no_session", "send " + SESSION_HEADER + " (from the initialize response) with the GET");
            ProxySession session = pool.get(sessionId);
            if (session == null) throw ApiError.notFound("no_session", "no open session " + sessionId + ": initialize again");
            LinkedBlockingQueue<ObjectNode> events = new LinkedBlockingQueue<>();
            Consumer<McpConnection.Notification> listener = n -> {
                if (!n.method().equals("notifications/progress")) events.add(ProxyProtocol.notification(n));
            };
            session.onNotification(listener);
            session.streams.incrementAndGet();
            try {
                ex.startStream(200, "text/event-stream");
                ex.send(": open\n\n".getBytes(StandardCharsets.UTF_8));   // sends the headers: the client knows the stream is open
                long quiet = 0;
                while (!closed.get() && pool.holds(sessionId, session)) {
                    ObjectNode event = events.poll(200, TimeUnit.MILLISECONDS);
                    if (event != null) {
                        ex.send(sse(event));
                        quiet = 0;
                    } else if (++quiet % 75 == 0) {
                        ex.send(": keep-alive\n\n".getBytes(StandardCharsets.UTF_8));   // a client that left is noticed here
                    }
                }
                ex.finish(new byte[0]);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException gone) {
                // the client closed the stream
            } finally {
                session.streams.decrementAndGet();
                session.removeListener(listener);
            }
        }

        /**
         * A tool call answered as a server-sent event stream: the upstream's notifications while it runs (its
         * progress for this call's token, its logging) as events, then the response.
         */
        private void streamCall(HttpCall ex, ProxySession session, JsonNode request) throws IOException {
            JsonNode token = request.path("params").path("_meta").get("progressToken");
            LinkedBlockingQueue<ObjectNode> events = new LinkedBlockingQueue<>();
            // Its own progress; the rest only when the session has no GET stream to carry it (a message goes on one stream).
            Consumer<McpConnection.Notification> listener = n -> {
                boolean progress = n.method().equals("notifications/progress");
                if (progress ? token != null && n.params() != null && token.equals(n.params().get("progressToken")) : session.streams.get() == 0) {
                    events.add(ProxyProtocol.notification(n));
                }
            };
            session.onNotification(listener);
            try {
                CompletableFuture<ObjectNode> answer = new CompletableFuture<>();
                Thread.ofVirtual().name("proxy-call").start(() -> {
                    try {
                        answer.complete(ProxyProtocol.answer(session, request));
                    } catch (RuntimeException e) {
                        answer.completeExceptionally(e);
                    } finally {
                        events.add(ANSWERED);   // after the notifications that came while the call ran
                    }
                });
                ex.startStream(200, "text/event-stream");
                for (ObjectNode event = events.take(); event != ANSWERED; event = events.take()) ex.send(sse(event));
                ObjectNode response = answer.join();
                ex.finish(response == null ? new byte[0] : sse(response));   // cancelled: the stream ends without it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            } finally {
                session.removeListener(listener);
            }
        }

        /** Put on a streamed call's event queue when its answer is ready (compared by identity). */
        private static final ObjectNode ANSWERED = Json.object();

        private static byte[] sse(ObjectNode message) {
            return ("event: message\ndata: " + Json.write(message) + "\n\n").getBytes(StandardCharsets.UTF_8);
        }
    }
}
