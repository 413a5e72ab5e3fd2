package dev.openagent.fake;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * An OpenAI-compatible endpoint on 127.0.0.1 (ephemeral port) that replays a script of canned
 * replies, malformed ones included: bad bodies, HTTP errors with headers, slow replies and dropped
 * connections. When the script runs out it answers with {@code fallback}. It serves at most
 * {@code maxRequests} requests (then 500s), so a runaway client cannot loop forever.
 */
public final class FakeOpenAiServer implements AutoCloseable {
    /** One canned reply. */
    public sealed interface Reply {}

    /** A response: status, body and headers, sent after {@code delayMs}. */
    public record Http(int status, String body, Map<String, String> headers, long delayMs) implements Reply {}

    /** The connection is closed without any response. */
    public record Drop() implements Reply {}

    /** Response headers promise a body that never fully arrives. */
    public record Truncated() implements Reply {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Deque<Reply> script = new ArrayDeque<>();
    private final List<String> bodies = new ArrayList<>();
    private final Function<String, Reply> fallback;
    private final int maxRequests;

    public FakeOpenAiServer(Function<String, Reply> fallback, int maxRequests) throws IOException {
        this.fallback = fallback;
        this.maxRequests = maxRequests;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    public FakeOpenAiServer(Reply... replies) throws IOException {
        this(body -> new Http(500, "{\"error\":{\"message\":\"script exhausted\"}}", Map.of(), 0), 200);
        script(replies);
    }

    public synchronized FakeOpenAiServer script(Reply... replies) {
        script.addAll(List.of(replies));
        return this;
    }

    public String baseUrl() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"; }

    /** Request bodies received, in order. */
    public synchronized List<String> bodies() { return List.copyOf(bodies); }

    public synchronized int requests() { return bodies.size(); }

    private void handle(HttpExchange ex) throws IOException {
        String body;
        try (InputStream in = ex.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Reply reply;
        synchronized (this) {
            bodies.add(body);
            reply = bodies.size() > maxRequests ? new Http(500, "{\"error\":\"request limit of the fake server\"}", Map.of(), 0)
                    : !script.isEmpty() ? script.poll() : null;
        }
        if (reply == null) reply = fallback.apply(body);
        switch (reply) {
            case Drop d -> {
                // Throwing from the handler makes the server close the connection without a response.
                throw new IOException("fake server drops the connection");
            }
            case Truncated t -> {
                ex.sendResponseHeaders(200, 1000);
                OutputStream out = ex.getResponseBody();
                out.write("{\"choices\":".getBytes(StandardCharsets.UTF_8));
                out.flush();
                try {
                    ex.close(); // fewer bytes than promised: the server cuts the connection
                } catch (RuntimeException cut) {
                    // expected
                }
            }
            case Http h -> {
                if (h.delayMs() > 0) {
                    try {
                        Thread.sleep(h.delayMs());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        ex.close();
                        return;
                    }
                }
                byte[] bytes = h.body().getBytes(StandardCharsets.UTF_8);
                h.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
                ex.getResponseHeaders().set("Content-Type", "application/json");
                ex.sendResponseHeaders(h.status(), bytes.length == 0 ? -1 : bytes.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(bytes);
                } catch (IOException clientGone) {
                    // the client timed out and left
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    // ------------------------------------------------------------------ canned replies

    public static Http ok(String body) { return new Http(200, body, Map.of(), 0); }

    public static Http status(int status) { return new Http(status, "{\"error\":{\"message\":\"status " + status + "\"}}", Map.of(), 0); }

    public static Http slow(long delayMs, String body) { return new Http(200, body, Map.of(), delayMs); }

    /** A completion whose message is plain text. */
    public static String text(String content) {
        return completion("{\"role\":\"assistant\",\"content\":" + quote(content) + "}", "stop");
    }

    /** A completion with tool calls: each call is {id, name, raw arguments text}. */
    public static String calls(String[]... calls) {
        StringBuilder sb = new StringBuilder("{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[");
        for (int i = 0; i < calls.length; i++) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":").append(quote(calls[i][0])).append(",\"type\":\"function\",\"function\":{\"name\":")
                    .append(quote(calls[i][1])).append(",\"arguments\":").append(quote(calls[i][2])).append("}}");
        }
        return completion(sb.append("]}").toString(), "tool_calls");
    }

    public static String[] call(String id, String name, String arguments) { return new String[]{id, name, arguments}; }

    static String completion(String message, String finish) {
        return "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":" + message
                + ",\"finish_reason\":\"" + finish + "\"}],\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,\"total_tokens\":18}}";
    }

    public static String quote(String s) {
        return dev.openagent.json.Json.write(s);
    }
}
