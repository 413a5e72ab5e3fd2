package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.SilentCloseable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** One fuzzed HTTP request to a server on loopback and its answer: the status, the headers and the body's text. */
record Exchange(String sent, int status, HttpHeaders headers, String body) {
    /** Methods a fuzzed request may use (not HEAD, whose answer has no body to judge). */
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");

    /**
     * Jazzer reports any network connection as a finding (its SSRF detector): the fuzzed client's connections to the
     * server under test, on 127.0.0.1 and its port, are expected; any other still is one.
     */
    static SilentCloseable allowOnly(int port) {
        return BugDetectors.allowNetworkConnections((host, p) -> p == port && (host.equals("127.0.0.1") || host.equals("localhost")));
    }

    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** A path segment of the fuzzer's text, percent-encoded so that any text makes a valid URI. */
    static String segment(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    /**
     * Sends a request with a body (as bytes, invalid UTF-8 and all) and headers; {@link #sent()} is what the client
     * sent that an answer may quote: the path, the header values and the body as text.
     */
    static Exchange send(HttpClient client, String method, String url, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).header("Content-Type", "application/json");
        headers.forEach(b::header);
        String sent = URI.create(url).getPath() + " " + String.join(" ", headers.values()) + " " + new String(body, StandardCharsets.UTF_8);
        try {
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Exchange(sent, r.statusCode(), r.headers(), r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("no answer to " + method + " " + url + " " + Answers.abbreviate(sent), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
