package dev.openagent.server.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.openagent.json.Json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Reading JSON requests and writing JSON responses over the JDK HTTP server. */
public final class JsonHttp {
    /** Rejects trailing garbage and duplicate keys: {@code {"answer":"a","answer":"b"}} is an error, not a guess. */
    private static final ObjectReader STRICT = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    public static final String JSON_TYPE = "application/json; charset=utf-8";

    private JsonHttp() {}

    /**
     * The request body, at most {@code maxBytes}.
     *
     * @throws ApiError 413 when the body is larger
     */
    public static byte[] readBody(HttpExchange exchange, long maxBytes) throws IOException {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        InputStream in = exchange.getRequestBody();
        if (declared != null) {
            long length;
            try {
                length = Long.parseLong(declared.strip());
            } catch (NumberFormatException e) {
                throw ApiError.invalid("Content-Length is not a number");
            }
            if (length > maxBytes) throw tooLarge(maxBytes);
            // The usual case: read exactly the declared bytes into one array of that size.
            if (length >= 0) return in.readNBytes((int) length);
        }
        // Chunked bodies have no declared length: read one byte past the cap to detect overflow.
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        byte[] buf = new byte[8192];
        long total = 0;
        int n;
        while ((n = in.read(buf)) > 0) {
            total += n;
            if (total > maxBytes) throw tooLarge(maxBytes);
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    private static ApiError tooLarge(long maxBytes) {
        return new ApiError(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
    }

    /**
     * The request body as a JSON object.
     *
     * @param emptyIsObject whether an empty body means {@code {}} (else it is an error)
     * @throws ApiError 400 on malformed JSON or a body that is not an object, 413 when too large
     */
    public static ObjectNode readObject(HttpExchange exchange, long maxBytes, boolean emptyIsObject) throws IOException {
        byte[] body = readBody(exchange, maxBytes);
        if (body.length == 0 || isBlank(body)) {
            if (emptyIsObject) return Json.object();
            throw new ApiError(400, "malformed_json", "the request body is empty; expected a JSON object");
        }
        JsonNode node;
        try {
            node = STRICT.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ApiError(400, "malformed_json", "the request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new ApiError(400, "malformed_json", "the request body is not valid JSON: " + e.getMessage());
        }
        if (!(node instanceof ObjectNode o)) {
            throw ApiError.invalid("the request body must be a JSON object, not " + kind(node));
        }
        return o;
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) if (b != ' ' && b != '\n' && b != '\r' && b != '\t') return false;
        return true;
    }

    /** A JSON type's name for error messages. */
    public static String kind(JsonNode n) {
        if (n == null || n.isMissingNode()) return "missing";
        return switch (n.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase();
        };
    }

    public static void sendJson(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = body instanceof byte[] b ? b : Json.MAPPER.writeValueAsBytes(body);
        send(exchange, status, bytes, JSON_TYPE);
    }

    /** Sends a complete body with its length, so the connection stays open for the next request. */
    public static void send(HttpExchange exchange, int status, byte[] body, String contentType) throws IOException {
        if (contentType != null) exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** @throws ApiError 405 (with an Allow header) unless the request uses one of the methods */
    public static void requireMethod(HttpExchange ex, String... methods) {
        String m = ex.getRequestMethod();
        for (String ok : methods) if (ok.equals(m)) return;
        ex.getResponseHeaders().set("Allow", String.join(", ", methods));
        throw new ApiError(405, "method_not_allowed", m + " is not allowed on " + ex.getRequestURI().getRawPath()
                + " (allowed: " + String.join(", ", methods) + ")");
    }

    public static ObjectNode errorBody(String code, String message) {
        ObjectNode root = Json.object();
        ObjectNode e = root.putObject("error");
        e.put("code", code);
        e.put("message", message);
        return root;
    }

    public static void sendError(HttpExchange exchange, ApiError e) throws IOException {
        sendJson(exchange, e.status(), errorBody(e.code(), e.getMessage()));
    }
}
