package dev.openagent.server.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests for the servers' parsers, grown from the fuzzer's bytes (Jazzer's {@link FuzzedDataProvider}): a valid
 * message with its JSON tree changed (values of other types and sizes, fields dropped, added or renamed, nesting past
 * the reader's limit), then now and then its bytes (cut short, a byte inserted or dropped, invalid UTF-8); or, one
 * time in eight, the fuzzer's bytes as they are. Every choice is drawn from the fuzzer's bytes, so coverage guides
 * them and an input replays to the same request.
 */
final class Mutator {
    /** Field names the protocols use (in the wrong place, perhaps). */
    private static final List<String> KEYS = List.of("type", "data", "action", "tool_calls", "function", "arguments", "name",
            "answer", "messages", "role", "content", "tools", "params", "method", "id", "jsonrpc", "_meta", "progressToken", "seed",
            "task", "split", "env", "shift", "metadata", "max_tokens", "cursor", "uri", "capabilities", "episode_id", "difficulty",
            "run_seed", "timeout_s", "request_id", "tool_choice", "temperature", "n", "stream", "ref", "argument", "level");
    /** Text values the protocols use. */
    private static final List<String> WORDS = List.of("", " ", "none", "test", "train", "poi", "get_task", "search_places", "assistant",
            "user", "tool", "system", "2.0", "tools/call", "openagent://task", "reset", "step", "state", "close", "function", "auto",
            "obs.format:format=xml", "tool.schema-noise+obs.format", "all", "tier:perception", "ref/prompt", "info", "2025-06-18");

    private final FuzzedDataProvider data;

    Mutator(FuzzedDataProvider data) {
        this.data = data;
    }

    int nextInt(int bound) { return data.consumeInt(0, bound - 1); }

    <T> T pick(List<T> from) { return from.get(nextInt(from.size())); }

    /** Up to {@code max} characters of the fuzzer's text, any code point. */
    String text(int max) { return data.consumeString(max); }

    /** Up to {@code max} printable ASCII characters (a header value the HTTP client accepts). */
    String headerText(int max) {
        StringBuilder sb = new StringBuilder();
        for (char c : data.consumeAsciiString(max).toCharArray()) if (c > ' ' && c < 127) sb.append(c);
        return sb.toString();
    }

    /** A request grown from one of the valid messages, or (one time in eight) the rest of the fuzzer's bytes. */
    byte[] request(List<JsonNode> valid) {
        if (nextInt(8) == 0) return data.consumeRemainingAsBytes();
        return mutate(pick(valid));
    }

    /** As {@link #request}, as text (invalid UTF-8 decoded as the replacement character). */
    String requestText(List<JsonNode> valid) {
        return new String(request(valid), StandardCharsets.UTF_8);
    }

    /** A mutation of a valid message: its tree changed one to three times, then (one time in four) its bytes. */
    private byte[] mutate(JsonNode valid) {
        JsonNode tree = valid.deepCopy();
        for (int n = 1 + nextInt(3); n > 0; n--) tree = mutateTree(tree);
        byte[] bytes = Json.write(tree).getBytes(StandardCharsets.UTF_8);
        return nextInt(4) == 0 ? mutateBytes(bytes) : bytes;
    }

    private record Slot(ContainerNode<?> parent, String field, int index, JsonNode node) {}

    private JsonNode mutateTree(JsonNode root) {
        List<Slot> slots = new ArrayList<>();
        collect(null, null, -1, root, slots);
        Slot s = pick(slots);
        int op = nextInt(6);
        if (s.parent() == null) return op == 0 ? value(0) : op == 1 ? Json.array().add(root) : root.isContainerNode() ? addTo(root) : value(0);
        switch (op) {
            case 0, 1 -> replace(s, value(0));
            case 2 -> remove(s);
            case 3 -> { if (s.node().isContainerNode()) addTo(s.node()); else replace(s, value(0)); }
            case 4 -> replace(s, nextInt(2) == 0 ? Json.array().add(s.node()) : Json.object().set(key(), s.node()));
            default -> {
                if (s.parent() instanceof ObjectNode o && s.field() != null) {
                    o.remove(s.field());
                    o.set(nextInt(2) == 0 ? key() : s.field().toUpperCase(), s.node());
                } else {
                    replace(s, value(0));
                }
            }
        }
        return root;
    }

    private static void collect(ContainerNode<?> parent, String field, int index, JsonNode node, List<Slot> out) {
        out.add(new Slot(parent, field, index, node));
        if (node instanceof ObjectNode o) o.properties().forEach(e -> collect(o, e.getKey(), -1, e.getValue(), out));
        else if (node instanceof ArrayNode a) for (int i = 0; i < a.size(); i++) collect(a, null, i, a.get(i), out);
    }

    private static void replace(Slot s, JsonNode with) {
        if (s.parent() instanceof ObjectNode o) o.set(s.field(), with);
        else if (s.parent() instanceof ArrayNode a && s.index() < a.size()) a.set(s.index(), with);
    }

    private static void remove(Slot s) {
        if (s.parent() instanceof ObjectNode o) o.remove(s.field());
        else if (s.parent() instanceof ArrayNode a && s.index() < a.size()) a.remove(s.index());
    }

    private JsonNode addTo(JsonNode container) {
        if (container instanceof ObjectNode o) o.set(key(), value(0));
        else if (container instanceof ArrayNode a) a.add(value(0));
        return container;
    }

    private String key() {
        return nextInt(3) == 0 ? text(12) : pick(KEYS);
    }

    /** A JSON value of every type, size and depth the parsers must survive. */
    private JsonNode value(int depth) {
        return switch (nextInt(depth > 3 ? 9 : 13)) {
            case 0 -> Json.NODES.textNode(text(20));
            case 1 -> Json.NODES.textNode(text(3).repeat(nextInt(4000)));
            case 2 -> Json.NODES.numberNode(data.consumeLong());
            case 3 -> Json.NODES.numberNode(pick(List.of(-1L, 0L, 1L, -5L, (long) Integer.MAX_VALUE + 1, Long.MIN_VALUE)));
            case 4 -> Json.NODES.numberNode(pick(List.of(0.5, -0.0, 1e308, -1e-308, Double.MAX_VALUE, 3.0, data.consumeDouble())));
            case 5 -> Json.NODES.numberNode(BigInteger.TEN.pow(20 + nextInt(400)));
            case 6 -> Json.NODES.booleanNode(data.consumeBoolean());
            case 7 -> Json.NODES.nullNode();
            case 8 -> Json.NODES.textNode(pick(WORDS));
            case 9 -> nested(1 + nextInt(300));   // deeper than the reader's limit: at the byte level (the writer has one too)
            case 10 -> {
                ArrayNode a = Json.array();
                for (int i = nextInt(4); i > 0; i--) a.add(value(depth + 1));
                yield a;
            }
            default -> {
                ObjectNode o = Json.object();
                for (int i = nextInt(4); i > 0; i--) o.set(key(), value(depth + 1));
                yield o;
            }
        };
    }

    private JsonNode nested(int depth) {
        JsonNode n = Json.NODES.numberNode(1);
        for (int i = 0; i < depth; i++) n = nextInt(2) == 0 ? Json.array().add(n) : Json.object().set("x", n);
        return n;
    }

    private byte[] mutateBytes(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = b.length == 0 ? 0 : nextInt(b.length);
        switch (nextInt(6)) {
            case 0 -> out.write(b, 0, at);                                                          // cut short
            case 1 -> { out.write(b, 0, at); out.write(pick(List.of(0xff, 0xc3, 0x80, 0xed, 0xf4, (int) '"', (int) '{', (int) ']', (int) ',', 0))); out.write(b, at, b.length - at); }
            case 2 -> { out.write(b, 0, at); if (at + 1 < b.length) out.write(b, at + 1, b.length - at - 1); }   // a byte dropped
            case 3 -> { out.write(b, 0, b.length); out.writeBytes(pick(List.of("}", " {}", "x", "\n{\"a\":1}", "]")).getBytes(StandardCharsets.UTF_8)); }
            case 4 -> { out.write(b, 0, at); out.write(b, 0, b.length); out.write(b, at, b.length - at); }   // a copy spliced in
            default -> {                                                                            // nested past any limit
                int depth = 900 + nextInt(400);
                out.writeBytes("[".repeat(depth).getBytes(StandardCharsets.UTF_8));
                out.write(b, 0, b.length);
                out.writeBytes("]".repeat(depth).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }
}
