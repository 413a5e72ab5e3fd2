package dev.openagent.server.view;

import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;

/**
 * Who may read the viewer: everyone (no token), or a browser or client holding the token. A browser is given the
 * token once in the address ({@code /?token=...}); the viewer then sets it as an HttpOnly, SameSite=Strict cookie
 * and redirects to the same page without it, so the token leaves the address bar and history. A client may send
 * {@code Authorization: Bearer <token>} instead.
 */
record ViewAccess(BearerAuth auth) {
    static final String COOKIE = "openagent_view";

    boolean enabled() { return auth.enabled(); }

    /**
     * @param authorization the Authorization header, or null
     * @param cookie        the Cookie header, or null
     * @param queryToken    the {@code token} query parameter, or null
     * @throws ApiError 401 when a token is required and none of the three carries it
     */
    void check(String authorization, String cookie, String queryToken) {
        if (!auth.enabled()) return;
        if (queryToken != null) {
            auth.check("Bearer " + queryToken);
            return;
        }
        String fromCookie = cookieValue(cookie);
        if (authorization == null && fromCookie != null) {
            auth.check("Bearer " + fromCookie);
            return;
        }
        auth.check(authorization);
    }

    /** The Set-Cookie value that keeps the token for this viewer's pages. */
    static String setCookie(String token) {
        return COOKIE + "=" + token + "; Path=/; HttpOnly; SameSite=Strict";
    }

    static String cookieValue(String header) {
        if (header == null) return null;
        for (String part : header.split(";")) {
            String p = part.strip();
            if (p.startsWith(COOKIE + "=")) return p.substring(COOKIE.length() + 1);
        }
        return null;
    }
}
