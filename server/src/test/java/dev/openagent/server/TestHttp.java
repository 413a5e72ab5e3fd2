package dev.openagent.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** A small JSON client over the JDK HttpClient for server tests (loopback only). */
public final class TestHttp implements AutoCloseable {
    public record Response(int status, JsonNode body, HttpResponse<String> raw) {
        public String errorCode() { return body.path("error").path("code").asText(null); }

        public String errorMessage() { return body.path("error").path("message").asText(""); }
    }

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final String base;
    private final String token;

    public TestHttp(String base) { this(base, null); }

    public TestHttp(String base, String token) {
        this.base = base;
        this.token = token;
    }

    public Response get(String path) { return send("GET", path, null); }

    public Response delete(String path) { return send("DELETE", path, null); }

    public Response post(String path, Object body) {
        return send("POST", path, body instanceof String s ? s : Json.write(body));
    }

    public Response send(String method, String path, String body) {
        return send(method, path, body, java.util.Map.of());
    }

    /** A request with extra headers (a session id, a Host or an Origin to test). */
    public Response send(String method, String path, String body, java.util.Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) b.header("Content-Type", "application/json");
        headers.forEach(b::header);
        if (token != null) b.header("Authorization", "Bearer " + token);
        return send(b.build());
    }

    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            JsonNode body = r.body().isEmpty() ? Json.object() : Json.parse(r.body());
            return new Response(r.statusCode(), body, r);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String base() { return base; }

    @Override
    public void close() { client.close(); }
}
