package dev.openagent.agent.openai;

import dev.openagent.chat.ChatCompletion;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.run.RunControl;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Optional;

/**
 * One {@code /chat/completions} endpoint: sends a request body and returns the parsed completion,
 * reading and filling the response cache, spending the run's budget, and retrying with backoff on
 * timeouts, 408, 429 (honouring Retry-After), 5xx, dropped connections and responses without a
 * choice. When retries are exhausted it throws {@link InfrastructureException}: the episode is
 * recorded as an infrastructure error, never as an agent failure. 401/403/404 stop the whole run
 * (every further request would fail the same way). Shared by all sessions of an agent.
 */
public final class ChatEndpoint implements AutoCloseable {
    /** Waits between retries; tests substitute one that records the delays. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;

        Sleeper REAL = d -> Thread.sleep(d.toMillis());
    }

    /** A completion and whether it came from the cache (cached replies spend no budget). */
    public record Reply(ChatCompletion completion, boolean cached) {}

    private final OpenAiConfig config;
    private final java.net.URI url;
    private final java.util.concurrent.ExecutorService httpExecutor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient http;
    private final ResponseCache cache;
    private final boolean readCache;
    private final RunControl control;
    private final Sleeper sleeper;

    public ChatEndpoint(OpenAiConfig config, ResponseCache cache, boolean readCache, RunControl control, Sleeper sleeper) {
        this.config = config;
        this.url = config.endpoint();
        this.cache = cache == null ? ResponseCache.NONE : cache;
        this.readCache = readCache;
        this.control = control == null ? RunControl.unlimited() : control;
        this.sleeper = sleeper == null ? Sleeper.REAL : sleeper;
        Duration connect = config.timeout().compareTo(Duration.ofSeconds(30)) < 0 ? config.timeout() : Duration.ofSeconds(30);
        // The client's own work on virtual threads: measurably cheaper than its default thread pool under many episodes.
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connect).executor(httpExecutor).build();
    }

    public ChatEndpoint(OpenAiConfig config) {
        this(config, ResponseCache.NONE, false, RunControl.unlimited(), Sleeper.REAL);
    }

    public OpenAiConfig config() { return config; }

    /**
     * The completion of a request body.
     *
     * @param sample which sample of this request (the trial): part of the cache key, so repeated
     *               trials are independent samples rather than one cached reply
     */
    public Reply complete(String body, int sample) {
        String key = cacheKey(body, sample);
        if (readCache) {
            Optional<String> hit = cache.get(key);
            if (hit.isPresent()) {
                try {
                    return new Reply(ChatCompletion.parse(hit.get()), true);
                } catch (ChatCompletion.BadResponse ignored) {
                    // a damaged entry: ask the model again and overwrite it
                }
            }
        }
        HttpRequest request = request(body);
        String failure;
        for (int attempt = 0; ; attempt++) {
            control.beforeRequest();
            Duration retryAfter = null;
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    try {
                        ChatCompletion c = ChatCompletion.parse(response.body());
                        control.spent(c.promptTokens(), c.completionTokens());
                        cache.put(key, config.model(), response.body());
                        return new Reply(c, false);
                    } catch (ChatCompletion.BadResponse e) {
                        failure = e.getMessage();
                    }
                } else if (status == 408 || status == 429 || status >= 500) {
                    failure = "HTTP " + status + said(response.body());
                    retryAfter = retryAfter(response);
                } else if (status == 401 || status == 403 || status == 404) {
                    String why = "HTTP " + status + " from " + url + (status == 404
                            ? ": no such endpoint or model '" + config.model() + "'"
                            : ": the endpoint refused the credentials (set the key's variable, see --api-key-env)")
                            + said(response.body());
                    control.stop(why);
                    throw new InfrastructureException(why);
                } else {
                    throw new InfrastructureException("HTTP " + status + " (not retried)" + said(response.body()));
                }
            } catch (IOException e) {
                failure = failure(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InfrastructureException("interrupted while waiting for the model", e);
            }
            if (attempt >= config.retry().maxRetries()) {
                throw new InfrastructureException("model request failed after " + (attempt + 1) + " attempt(s): " + failure);
            }
            try {
                sleeper.sleep(config.retry().delay(attempt, retryAfter));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InfrastructureException("interrupted while backing off", e);
            }
        }
    }

    /** What went wrong with the connection, in words (the JDK's exceptions often carry no message). */
    private String failure(IOException e) {
        String where = url.getHost() + (url.getPort() < 0 ? "" : ":" + url.getPort());
        if (e instanceof HttpConnectTimeoutException) return "no connection to " + where + " within " + http.connectTimeout().orElseThrow().toMillis() + " ms";
        if (e instanceof HttpTimeoutException) return "no response within " + config.timeout().toMillis() + " ms";
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof UnresolvedAddressException || c instanceof UnknownHostException) return "unknown host " + url.getHost();
        }
        if (e instanceof ConnectException) return "connection refused by " + where;
        return "connection failed: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
    }

    private HttpRequest request(String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url)
                .timeout(config.timeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", "openagent/0.1")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (config.apiKey() != null) b.header("Authorization", "Bearer " + config.apiKey());
        return b.build();
    }

    /** Retry-After in seconds or as an HTTP date, or retry-after-ms; null when absent or unreadable. */
    static Duration retryAfter(HttpResponse<?> response) {
        Optional<String> ms = response.headers().firstValue("retry-after-ms");
        if (ms.isPresent()) {
            try {
                return Duration.ofMillis((long) Double.parseDouble(ms.get().strip()));
            } catch (NumberFormatException ignored) {
                // fall through to Retry-After
            }
        }
        Optional<String> v = response.headers().firstValue("retry-after");
        if (v.isEmpty()) return null;
        String s = v.get().strip();
        try {
            return Duration.ofMillis((long) (Double.parseDouble(s) * 1000));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration d = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(s, DateTimeFormatter.RFC_1123_DATE_TIME));
                return d.isNegative() ? Duration.ZERO : d;
            } catch (DateTimeParseException notDate) {
                return null;
            }
        }
    }

    private static String said(String body) {
        String s = ChatCompletion.abbreviate(body);
        return s.isEmpty() ? "" : ": " + s;
    }

    /** SHA-256 of the exact request body and the sample index. */
    public static String cacheKey(String body, int sample) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update(body.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(Integer.toString(sample).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        http.close();
        httpExecutor.shutdown();
    }
}
