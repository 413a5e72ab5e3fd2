package dev.openagent.server.http;

import dev.openagent.UserInputException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Optional bearer-token check. The scheme is matched case-insensitively ({@code bearer},
 * {@code Bearer}, {@code BEARER}: RFC 9110 makes auth schemes case-insensitive); the token is
 * compared as a SHA-256 digest with {@link MessageDigest#isEqual}, so the comparison takes the
 * same time whatever the token's length or how many leading characters match.
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
            throw new UserInputException("--token-env " + envName + ": the environment variable is unset or empty");
        }
        return of(token.strip());
    }

    public static BearerAuth of(String token) {
        return new BearerAuth(sha256(token));
    }

    public boolean enabled() { return expected != null; }

    /**
     * @param authorization the request's {@code Authorization} header, or null
     * @throws ApiError 401 when a token is required and the header does not carry it
     */
    public void check(String authorization) {
        if (expected == null) return;
        if (authorization == null) throw unauthorized("missing Authorization: Bearer <token> header");
        String h = authorization.strip();
        int space = h.indexOf(' ');
        if (space < 0 || !h.substring(0, space).equalsIgnoreCase("Bearer")) {
            throw unauthorized("the Authorization header must use the Bearer scheme");
        }
        if (!MessageDigest.isEqual(expected, sha256(h.substring(space + 1).strip()))) throw unauthorized("wrong bearer token");
    }

    private static ApiError unauthorized(String message) {
        return new ApiError(401, "unauthorized", message);
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
