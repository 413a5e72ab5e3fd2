package dev.openagent.server.fuzz;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a client may read in a server's answer to a fuzzed request: the protocol's own shape (an HTTP status below 500
 * with a JSON problem, or a JSON-RPC response with the error code that fits), one line of words of the server's own,
 * and nothing of a library's or Java's text. Text the client sent and the server quotes back does not count.
 */
final class Answers {
    /** A library's class, setting or message, a stack frame, a Java exception's text. */
    private static final List<String> INTERNAL = List.of("Exception", "Throwable", "java.", "javax.", "jdk.", "com.fasterxml",
            "tools.jackson", "Jackson", "jackson", "io.modelcontextprotocol", "org.eclipse", "reactor.", "StreamReadConstraints",
            "DeserializationFeature", "[Source:", "McpSchema", "\tat ", "For input string", "Cannot invoke", "because \"",
            "Unrecognized field", "(code ", "dev.openagent");
    /** A Java name: package-qualified ({@code org.example.Type}) or nested ({@code Outer$Inner}). */
    private static final Pattern JAVA_NAME = Pattern.compile("\\b[a-z][a-z0-9_]*(?:\\.[a-z][a-z0-9_]*)+\\.[A-Z][A-Za-z0-9_]*|[A-Za-z0-9_]\\$[A-Za-z_][A-Za-z0-9_]*");
    /**
     * The JSON-RPC errors a server may answer a client's request with: JSON-RPC's own, and MCP's -32002 (a resource
     * not found); never -32603 (internal error).
     */
    static final Set<Integer> JSON_RPC_CODES = Set.of(-32700, -32600, -32601, -32602, -32002);
    private static final ObjectReader STRICT = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private Answers() {}

    /** The first piece of internal text in an answer that is not in what the client sent, or null. */
    static String internalText(String answer, String sent) {
        for (String m : INTERNAL) if (answer.contains(m) && !sent.contains(m)) return m;
        Matcher m = JAVA_NAME.matcher(answer);
        while (m.find()) if (!sent.contains(m.group())) return m.group();
        return null;
    }

    static String abbreviate(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "...";
    }

    /** An error message: not blank, and one line (no line break of its own or quoted from the request). */
    static void checkMessage(String message, String answer) {
        assertFalse(message.isBlank(), "an error says what is wrong: " + abbreviate(answer));
        assertFalse(message.contains("\n") || message.contains("\r"), "one line: " + abbreviate(answer));
    }

    /**
     * An HTTP answer of {@code serve env} or {@code serve model}: below 500, a JSON object, and for 4xx a problem
     * {@code {"error": {"code": "...", "message": "..."}}} with a one-line message.
     */
    static void checkHttp(int status, String body, String sent) {
        String what = status + " for " + abbreviate(sent) + ": " + abbreviate(body);
        assertTrue(status >= 200 && status < 500, what);
        JsonNode answer;
        try {
            answer = Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw new AssertionError("not JSON: " + what);
        }
        assertTrue(answer != null && answer.isObject(), "a JSON object: " + what);
        assertNull(internalText(body, sent), "internal text: " + what);
        if (status >= 400) {
            JsonNode error = answer.path("error");
            assertTrue(error.isObject() && error.path("code").isTextual() && error.path("message").isTextual(),
                    "a problem {\"error\": {\"code\", \"message\"}}: " + what);
            assertFalse(error.path("code").asText().isBlank(), what);
            checkMessage(error.path("message").asText(), body);
        }
    }

    /**
     * A JSON-RPC answer to one message: version 2.0, a request's id when it had a usable one (a string or a 64-bit
     * integer), a result or an error (never both), and an error's code the one that fits what was sent: -32700 when
     * it is not UTF-8 or not JSON as the servers read it (no trailing text, no duplicate keys), -32600 when it is
     * JSON but not a JSON-RPC 2.0 message (not an object, no "jsonrpc": "2.0"), else -32600, -32601 or -32602 as
     * the server finds (or -32002 when a resource is not found); never -32603.
     */
    static void checkJsonRpc(JsonNode response, byte[] sent) {
        String sentText = new String(sent, StandardCharsets.UTF_8);
        String what = "for " + abbreviate(sentText) + ": " + abbreviate(response.toString());
        checkJsonRpcShape(response, sentText);
        JsonNode request = parseStrictly(sent);
        JsonNode id = request == null || !request.has("method") ? null : request.get("id");
        if (id != null && (id.isTextual() || (id.isIntegralNumber() && id.canConvertToLong()))) {
            assertEquals(id, response.get("id"), "the request's id " + what);
        }
        if (!response.has("error")) return;
        int code = response.get("error").path("code").asInt();
        if (request == null) assertEquals(-32700, code, "not JSON " + what);
        else if (!request.isObject() || !request.path("jsonrpc").isTextual() || !request.path("jsonrpc").asText().equals("2.0")) {
            assertEquals(-32600, code, "not a JSON-RPC 2.0 message " + what);
        } else {
            assertNotEquals(-32700, code, "valid JSON " + what);
        }
    }

    /**
     * A JSON-RPC response whatever it answers: version 2.0, an id, a result or an error (never both), an error's code
     * one a client's request may get, never -32603, and a one-line message; no internal text that is not in
     * {@code sent}.
     */
    static void checkJsonRpcShape(JsonNode response, String sent) {
        String what = "for " + abbreviate(sent) + ": " + abbreviate(response.toString());
        assertNull(internalText(response.toString(), sent), "internal text " + what);
        assertEquals("2.0", response.path("jsonrpc").asText(null), what);
        assertTrue(response.has("id"), "an id (null when the request had none usable) " + what);
        assertTrue(response.has("result") != response.has("error"), "a result or an error " + what);
        if (!response.has("error")) return;
        JsonNode error = response.get("error");
        int code = error.path("code").asInt();
        assertNotEquals(-32603, code, "an internal error " + what);
        assertTrue(error.path("code").isInt() && JSON_RPC_CODES.contains(code), "a JSON-RPC error code " + what);
        checkMessage(error.path("message").asText(""), response.toString());
    }

    /** The message as the servers read JSON (valid UTF-8, no trailing text, no duplicate keys), or null. */
    static JsonNode parseStrictly(byte[] sent) {
        try {
            String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(sent)).toString();
            if (text.isBlank()) return null;
            return STRICT.readTree(text);
        } catch (CharacterCodingException | JacksonException e) {
            return null;
        }
    }
}
