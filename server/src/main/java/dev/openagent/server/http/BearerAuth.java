package dev.openagent.server.http;

import com.sun.net.httpserver.HttpExchange;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Optional bearer-token check. The expected header and the received one are compared as SHA-256
 * digests with {@link MessageDigest#isEqual}, so the comparison takes the same time whatever the
 * token's length or how many leading characters match.
 */
public final class BearerAuth {
    private final byte[] expected;

    private BearerAuth(byte[] expected) {
        this.expected = expected;
    }

    /** No check. */
    public static final BearerAuth NONE = new BearerAuth(null);

    /**
     * The token is read from the environment variable {@code envName}, never from the command
     * line, where other users of the machine could read it.
     *
     * @throws IllegalArgumentException when the variable is unset or empty
     */
    public static BearerAuth fromEnv(String envName) {
        if (envName == null) return NONE;
        String token = System.getenv(envName);
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("--token-env " + envName + ": the environment variable is unset or empty");
        }
        return of(token.strip());
    }

    public static BearerAuth of(String token) {
        return new BearerAuth(sha256("Bearer " + token));
    }

    public boolean enabled() { return expected != null; }

    /** @throws ApiError 401 when a token is required and the request does not carry it */
    public void check(HttpExchange exchange) {
        if (expected == null) return;
        String header = exchange.getRequestHeaders().getFirst("Authorization");
        if (header == null || !MessageDigest.isEqual(expected, sha256(header.strip()))) {
            exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "unauthorized", header == null
                    ? "missing Authorization: Bearer <token> header"
                    : "wrong bearer token");
        }
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
