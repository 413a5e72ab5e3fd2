package dev.openagent.server.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Reading JSON requests and writing JSON responses, the same way in every server. */
public final class JsonHttp {
    /** Rejects trailing garbage and duplicate keys: {@code {"answer":"a","answer":"b"}} is an error, not a guess. */
    private static final ObjectReader STRICT = Json.MAPPER.reader()
            .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    public static final String JSON_TYPE = "application/json; charset=utf-8";

    private JsonHttp() {}

    /**
     * Text from bytes that must be UTF-8: every server (and the WebSocket, through its library)
     * refuses invalid UTF-8 rather than guessing, so a client never gets an answer about text it
     * did not send.
     *
     * @throws ApiError 400 {@code malformed_json} naming the first bad byte's offset
     */
    public static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ApiError(400, "malformed_json", "the request body is not valid UTF-8 (at byte " + firstBadByte(bytes) + ")");
        }
    }

    private static int firstBadByte(byte[] bytes) {
        var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        var out = java.nio.CharBuffer.allocate(bytes.length + 1);
        decoder.decode(in, out, true);
        return in.position();
    }

    /**
     * The request body as a JSON object.
     *
     * @param emptyIsObject whether an empty body means {@code {}} (else it is an error)
     * @throws ApiError 400 on malformed JSON, invalid UTF-8 or a body that is not an object, 413 when too large
     */
    public static ObjectNode readObject(HttpCall call, long maxBytes, boolean emptyIsObject) throws IOException {
        return parseObject(call.body(maxBytes), emptyIsObject, "the request body");
    }

    /**
     * JSON bytes as an object, strictly: valid UTF-8, no trailing text, no duplicate keys.
     *
     * @param what how error messages name the text ("the request body", "the message")
     */
    public static ObjectNode parseObject(byte[] body, boolean emptyIsObject, String what) {
        return parseObject(utf8(body), emptyIsObject, what);
    }

    /** As {@link #parseObject(byte[], boolean, String)}, for text already decoded. */
    public static ObjectNode parseObject(String text, boolean emptyIsObject, String what) {
        if (text.isBlank()) {
            if (emptyIsObject) return Json.object();
            throw new ApiError(400, "malformed_json", what + " is empty; expected a JSON object");
        }
        JsonNode node;
        try {
            node = STRICT.readTree(text);
        } catch (JsonProcessingException e) {
            throw new ApiError(400, "malformed_json", what + " " + problem(e));
        }
        if (!(node instanceof ObjectNode o)) throw ApiError.invalid(what + " must be a JSON object, not " + kind(node));
        return o;
    }

    /**
     * What is wrong with JSON text, in words of its own: the parser's messages name its classes and settings
     * ({@code StreamReadConstraints.getMaxNestingDepth()}, {@code DeserializationFeature...}, "[Source: REDACTED").
     */
    static String problem(JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (e instanceof StreamConstraintsException) {
            StreamReadConstraints limits = STRICT.getFactory().streamReadConstraints();
            if (m.startsWith("Document nesting depth")) return "nests deeper than " + limits.getMaxNestingDepth() + " levels";
            if (m.startsWith("Number value length")) return "has a number longer than " + limits.getMaxNumberLength() + " characters";
            if (m.startsWith("String value length")) return "has a string longer than " + limits.getMaxStringLength() + " characters";
            if (m.startsWith("Name length")) return "has a field name longer than " + limits.getMaxNameLength() + " characters";
            return "is over a size limit of the JSON reader";
        }
        if (m.startsWith("Duplicate field '")) {
            return "has the field '" + m.substring("Duplicate field '".length(), Math.max(m.indexOf('\'', 17), 17)) + "' twice";
        }
        if (m.startsWith("Trailing token")) return "has more text after its JSON value";
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
        if (m.startsWith("Unexpected end-of-input")) return "ends before its JSON value is complete" + where;
        return "is not valid JSON" + where;
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

    public static void sendJson(HttpCall call, int status, Object body) throws IOException {
        byte[] bytes = body instanceof byte[] b ? b : Json.MAPPER.writeValueAsBytes(body);
        call.respond(status, bytes, JSON_TYPE);
    }

    /** @throws ApiError 405 (with an Allow header) unless the request uses one of the methods; HEAD counts as GET */
    public static void requireMethod(HttpCall call, String... methods) {
        String m = call.method();
        for (String ok : methods) if (ok.equals(m) || (m.equals("HEAD") && ok.equals("GET"))) return;
        call.setHeader("Allow", String.join(", ", methods));
        throw new ApiError(405, "method_not_allowed", m + " is not allowed on " + call.path()
                + " (allowed: " + String.join(", ", methods) + ")");
    }

    public static ObjectNode errorBody(String code, String message) {
        ObjectNode root = Json.object();
        ObjectNode e = root.putObject("error");
        e.put("code", code);
        e.put("message", oneLine(message));
        return root;
    }

    /**
     * An error message as one line: a control character or line separator it quotes from the request (an unknown
     * environment with a line break, a field name with a tab) is written as its escape (a line feed as the six
     * characters backslash, u, 000A), so that a client printing or logging the message shows one line, and no line of
     * the client's making.
     */
    public static String oneLine(String message) {
        if (message == null) return null;
        StringBuilder sb = null;
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            boolean control = Character.isISOControl(c) || c == '\u2028' || c == '\u2029';
            if (control && sb == null) sb = new StringBuilder(message.substring(0, i));
            if (sb != null) {
                if (control) sb.append(String.format("\\u%04X", (int) c));
                else sb.append(c);
            }
        }
        return sb == null ? message : sb.toString();
    }

    public static void sendError(HttpCall call, ApiError e) throws IOException {
        sendJson(call, e.status(), errorBody(e.code(), e.getMessage()));
    }
}
