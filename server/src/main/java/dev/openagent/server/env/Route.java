package dev.openagent.server.env;

import dev.openagent.server.http.HttpCall;

import java.io.IOException;

/**
 * One HTTP route of {@code serve env}, declared once: the server dispatches on it, lists it when a path is not found,
 * lets its open routes through without a token, and writes the OpenAPI document from it.
 *
 * @param method   null for any method (the WebSocket's upgrade path answers each one alike)
 * @param summary  what the OpenAPI document says of it; null leaves it out of the document ({@code /openapi.json}
 *                 itself, the WebSocket upgrade)
 * @param request  the component schema its body follows, or null (no body)
 * @param response the component schema of its 200 answer, or null
 * @param open     answered without the bearer token (health probes cannot send one)
 */
record Route(String method, String path, String summary, String request, String response, boolean open, Handler handler) {
    /** Answers one call on the route; the method has been checked. */
    @FunctionalInterface
    interface Handler {
        void handle(HttpCall call) throws IOException;
    }

    static Route get(String path, String summary, String response, Handler handler) {
        return new Route("GET", path, summary, null, response, false, handler);
    }

    static Route post(String path, String summary, String request, String response, Handler handler) {
        return new Route("POST", path, summary, request, response, false, handler);
    }

    /** A WebSocket's path: a plain HTTP request there, whatever its method, is told to upgrade. */
    static Route upgrade(String path, Handler handler) {
        return new Route(null, path, null, null, null, false, handler);
    }

    Route opened() { return new Route(method, path, summary, request, response, true, handler); }

    /** As the not-found answer lists it. */
    String listed() { return method == null ? "GET " + path + " (WebSocket)" : method + " " + path; }
}
