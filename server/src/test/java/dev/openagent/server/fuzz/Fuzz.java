package dev.openagent.server.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Seeded, bounded fuzzing for the servers' request parsers: inputs grown from valid messages by mutating their JSON
 * trees (values of other types and sizes, fields dropped, added or renamed, deep nesting) and then, now and then,
 * their bytes (cut short, a byte inserted or dropped, invalid UTF-8). A budget of tries, never of time; the same seed
 * gives the same inputs, and a failure names the seed and the try that reproduce it.
 * <p>
 * Random text is drawn from an alphabet without lower-case letters, '.' or '$', so an answer that echoes what it was
 * sent can never look like {@link #INTERNAL} text by accident.
 */
final class Fuzz {
    /** What a client must never read: a library's class, setting or message, a stack frame, a Java exception's text. */
    static final List<String> INTERNAL = List.of("Exception", "java.", "javax.", "jdk.", "com.fasterxml", "tools.jackson",
            "io.modelcontextprotocol", "org.eclipse", "reactor.", "StreamReadConstraints", "DeserializationFeature", "[Source:", "McpSchema",
            "\tat ", "For input string", "Cannot invoke", "because \"", "Unrecognized field", "(code ", "$");

    private static final String ALPHABET = "XYZQ0123456789 _-+:;,=/\\\"'{}[]()<>!?*#@%&|~^`\t\r\né中😀\u0000\u001f\u007f\u2028\ufeff";

    private final SplittableRandom random;

    Fuzz(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** The first internal marker in an answer, or null. */
    static String internalText(String answer) {
        for (String m : INTERNAL) if (answer.contains(m)) return m;
        return null;
    }

    /**
     * Runs {@code tries} tries of {@code body}, each with its own generator, and fails naming the seed and try of the
     * first that throws; whatever the servers wrote to stderr meanwhile must hold no stack trace.
     */
    static void run(String what, long seed, int tries, Consumer<Fuzz> body) {
        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            for (int i = 0; i < tries; i++) {
                try {
                    body.accept(new Fuzz(seed * 1_000_003L + i));
                } catch (AssertionError | RuntimeException e) {
                    throw new AssertionError(what + ": try " + i + " of seed " + seed + " failed: " + e.getMessage(), e);
                }
            }
        } finally {
            System.setErr(err);
        }
        String logged = log.toString(StandardCharsets.UTF_8);
        if (logged.contains("\tat ") || logged.contains("Exception")) throw new AssertionError(what + ": the server logged\n" + logged);
    }

    int nextInt(int bound) { return random.nextInt(bound); }

    <T> T pick(List<T> from) { return from.get(random.nextInt(from.size())); }

    /** A mutation of a valid message: its tree changed one to three times, then (one time in four) its bytes. */
    byte[] mutate(JsonNode valid) {
        JsonNode tree = valid.deepCopy();
        for (int n = 1 + random.nextInt(3); n > 0; n--) tree = mutateTree(tree);
        byte[] bytes = Json.write(tree).getBytes(StandardCharsets.UTF_8);
        return random.nextInt(4) == 0 ? mutateBytes(bytes) : bytes;
    }

    /** As {@link #mutate}, as text (invalid UTF-8 decoded as the replacement character). */
    String mutateText(JsonNode valid) {
        return new String(mutate(valid), StandardCharsets.UTF_8);
    }

    private record Slot(ContainerNode<?> parent, String field, int index, JsonNode node) {}

    private JsonNode mutateTree(JsonNode root) {
        List<Slot> slots = new ArrayList<>();
        collect(null, null, -1, root, slots);
        Slot s = pick(slots);
        int op = random.nextInt(6);
        if (s.parent() == null) return op == 0 ? value(0) : op == 1 ? Json.array().add(root) : root.isContainerNode() ? addTo(root) : value(0);
        switch (op) {
            case 0, 1 -> replace(s, value(0));
            case 2 -> remove(s);
            case 3 -> { if (s.node().isContainerNode()) addTo(s.node()); else replace(s, value(0)); }
            case 4 -> replace(s, random.nextBoolean() ? Json.array().add(s.node()) : Json.object().set(key(), s.node()));
            default -> {
                if (s.parent() instanceof ObjectNode o && s.field() != null) {
                    o.remove(s.field());
                    o.set(random.nextBoolean() ? key() : s.field().toUpperCase(), s.node());
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

    /** A field name: one the protocols use (in the wrong place, perhaps), or random text. */
    private String key() {
        return random.nextInt(3) == 0 ? text(12) : pick(List.of("type", "data", "action", "tool_calls", "function", "arguments", "name",
                "answer", "messages", "role", "content", "tools", "params", "method", "id", "jsonrpc", "_meta", "progressToken", "seed",
                "task", "split", "env", "shift", "metadata", "max_tokens", "cursor", "uri", "capabilities", "episode_id"));
    }

    /** A random JSON value, of every type, size and depth the parsers must survive. */
    JsonNode value(int depth) {
        return switch (random.nextInt(depth > 3 ? 9 : 13)) {
            case 0 -> Json.NODES.textNode(text(20));
            case 1 -> Json.NODES.textNode(text(1 + random.nextInt(3)).repeat(random.nextInt(4000)));
            case 2 -> Json.NODES.numberNode(random.nextLong());
            case 3 -> Json.NODES.numberNode(pick(List.of(-1L, 0L, 1L, -5L, (long) Integer.MAX_VALUE + 1, Long.MIN_VALUE)));
            case 4 -> Json.NODES.numberNode(pick(List.of(0.5, -0.0, 1e308, -1e-308, Double.MAX_VALUE, 3.0)));
            case 5 -> Json.NODES.numberNode(BigInteger.TEN.pow(20 + random.nextInt(400)));
            case 6 -> Json.NODES.booleanNode(random.nextBoolean());
            case 7 -> Json.NODES.nullNode();
            case 8 -> Json.NODES.textNode(pick(List.of("", " ", "none", "test", "train", "poi", "get_task", "search_places", "assistant",
                    "user", "tool", "2.0", "tools/call", "openagent://task", "reset", "step", "state", "close", "function", "auto")));
            case 9 -> nested(1 + random.nextInt(300));   // deeper than the reader's limit: at the byte level (the writer has one too)
            case 10 -> {
                ArrayNode a = Json.array();
                for (int i = random.nextInt(4); i > 0; i--) a.add(value(depth + 1));
                yield a;
            }
            default -> {
                ObjectNode o = Json.object();
                for (int i = random.nextInt(4); i > 0; i--) o.set(key(), value(depth + 1));
                yield o;
            }
        };
    }

    private JsonNode nested(int depth) {
        JsonNode n = Json.NODES.numberNode(1);
        for (int i = 0; i < depth; i++) n = random.nextBoolean() ? Json.array().add(n) : Json.object().set("X", n);
        return n;
    }

    String text(int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = random.nextInt(max + 1); i > 0; i--) sb.appendCodePoint(ALPHABET.codePointAt(ALPHABET.offsetByCodePoints(0, random.nextInt(ALPHABET.codePointCount(0, ALPHABET.length())))));
        return sb.toString();
    }

    private byte[] mutateBytes(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = b.length == 0 ? 0 : random.nextInt(b.length);
        switch (random.nextInt(6)) {
            case 0 -> out.write(b, 0, at);                                                          // cut short
            case 1 -> { out.write(b, 0, at); out.write(pick(List.<Integer>of(0xff, 0xc3, 0x80, 0xed, 0xf4, (int) '"', (int) '{', (int) ']', (int) ',', 0))); out.write(b, at, b.length - at); }
            case 2 -> { out.write(b, 0, at); if (at + 1 < b.length) out.write(b, at + 1, b.length - at - 1); }   // a byte dropped
            case 3 -> { out.write(b, 0, b.length); out.writeBytes(pick(List.of("}", " {}", "x", "\n{\"a\":1}", "]")).getBytes(StandardCharsets.UTF_8)); }
            case 4 -> { out.write(b, 0, at); out.write(b, 0, b.length); out.write(b, at, b.length - at); }   // a copy spliced in
            default -> {                                                                            // nested past any limit
                int depth = 900 + random.nextInt(400);
                out.writeBytes("[".repeat(depth).getBytes(StandardCharsets.UTF_8));
                out.write(b, 0, b.length);
                out.writeBytes("]".repeat(depth).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toByteArray();
    }
}
