package dev.openagent.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.openagent.UserInputException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A zero-latency OpenAI-compatible endpoint on 127.0.0.1 for {@code bench-harness}: it answers
 * at once with canned replies, so what is measured is the harness. Each episode makes
 * {@code turns - 1} calls of a tool that does not exist (the environment answers each with a
 * short error observation) and then answers. It counts the tool results already in the request
 * by scanning for {@code "tool_call_id"}, so it never parses JSON.
 */
final class BenchEndpoint implements AutoCloseable {
    private static final byte[] MARKER = "\"tool_call_id\"".getBytes(StandardCharsets.US_ASCII);

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final byte[][] replies;
    private final AtomicLong requests = new AtomicLong();

    BenchEndpoint(int turns) throws IOException {
        if (turns < 1) throw new UserInputException("turns must be >= 1");
        replies = new byte[turns][];
        for (int k = 0; k < turns; k++) {
            String message = k < turns - 1
                    ? "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_" + k
                      + "\",\"type\":\"function\",\"function\":{\"name\":\"bench_probe\",\"arguments\":\"{\\\"n\\\":" + k + "}\"}}]}"
                    : "{\"role\":\"assistant\",\"content\":\"The answer is 42.\"}";
            replies[k] = ("{\"id\":\"bench\",\"object\":\"chat.completion\",\"model\":\"bench\",\"choices\":[{\"index\":0,\"message\":"
                    + message + ",\"finish_reason\":\"" + (k < turns - 1 ? "tool_calls" : "stop")
                    + "\"}],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":10,\"total_tokens\":110}}").getBytes(StandardCharsets.UTF_8);
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    String baseUrl() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"; }

    long requests() { return requests.get(); }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                body = in.readAllBytes();
            }
            requests.incrementAndGet();
            int done = count(body);
            byte[] reply = replies[Math.min(done, replies.length - 1)];
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(200, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            }
        }
    }

    private static int count(byte[] body) {
        int n = 0;
        outer:
        for (int i = 0; i <= body.length - MARKER.length; i++) {
            for (int j = 0; j < MARKER.length; j++) if (body[i + j] != MARKER[j]) continue outer;
            n++;
            i += MARKER.length - 1;
        }
        return n;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
