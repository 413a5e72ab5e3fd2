package dev.openagent.server.http;

import java.net.URI;

/**
 * DNS-rebinding and cross-site protection, the same on every server (each request, WebSocket upgrades included,
 * passes it before the token check and any route): a request whose {@code Origin} is not a loopback page is refused,
 * and so, when the server is bound to a loopback address, is a request whose {@code Host} is not a loopback name (a
 * rebound name that resolves to 127.0.0.1 still carries its own Host). Clients that are not browsers send no Origin.
 */
public final class Addressing {
    private Addressing() {}

    /**
     * @param host         the request's Host header, or null
     * @param origin       the request's Origin header, or null
     * @param loopbackOnly whether the server is bound to a loopback address (then Host must name one)
     * @throws ApiError 403 {@code forbidden_host} or {@code forbidden_origin}
     */
    public static void check(String host, String origin, boolean loopbackOnly) {
        if (loopbackOnly && (host == null || !HttpService.isLoopback(hostName(host)))) {
            throw new ApiError(403, "forbidden_host", "this server answers requests addressed to a loopback host only, not " + host);
        }
        if (origin != null && !loopbackOrigin(origin)) {
            throw new ApiError(403, "forbidden_origin", "requests from origin " + origin + " are not accepted");
        }
    }

    /** The host part of a Host header value ({@code 127.0.0.1:8765}, {@code [::1]:8765}, {@code localhost}). */
    static String hostName(String hostHeader) {
        String h = hostHeader.strip();
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close < 0 ? h : h.substring(0, close + 1);
        }
        int colon = h.lastIndexOf(':');
        return colon < 0 ? h : h.substring(0, colon);
    }

    private static boolean loopbackOrigin(String origin) {
        try {
            return HttpService.isLoopback(URI.create(origin.strip()).getHost());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
