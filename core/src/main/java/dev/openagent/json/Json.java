package dev.openagent.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The one JSON mapper of the project and a few helpers around it. */
public final class Json {
    /** Deterministic output: map keys sorted, so the same value always serialises to the same bytes. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, false)
            .build();
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Json() {}

    public static ObjectNode object() { return NODES.objectNode(); }

    /**
     * An object from name/value pairs, in order, as {@code put} would write them: text, whole and real
     * numbers, booleans, nested JSON; a null value is JSON null.
     */
    public static ObjectNode object(Object... nameValues) {
        if (nameValues.length % 2 != 0) throw new IllegalArgumentException("an object needs name/value pairs");
        ObjectNode o = NODES.objectNode();
        for (int i = 0; i < nameValues.length; i += 2) {
            String name = (String) nameValues[i];
            switch (nameValues[i + 1]) {
                case null -> o.putNull(name);
                case String s -> o.put(name, s);
                case Integer n -> o.put(name, n);
                case Long n -> o.put(name, n);
                case Double d -> o.put(name, d);
                case Boolean b -> o.put(name, b);
                case JsonNode n -> o.set(name, n);
                default -> throw new IllegalArgumentException("unsupported value type for " + name + ": " + nameValues[i + 1].getClass());
            }
        }
        return o;
    }

    public static ArrayNode array() { return NODES.arrayNode(); }

    /**
     * A copy of a tree with every object key passed through {@code key} and every text value through
     * {@code text}; numbers, booleans and nulls are kept as they are.
     */
    public static JsonNode rewrite(JsonNode node, UnaryOperator<String> key, UnaryOperator<String> text) {
        return rewriteTree(node, key, leaf -> {
            if (!leaf.isTextual()) return leaf;
            String t = text.apply(leaf.asText());
            return t.equals(leaf.asText()) ? leaf : NODES.textNode(t);
        });
    }

    /** A copy of a tree with every value that is neither an object nor a list passed through {@code leaf}; keys kept. */
    public static JsonNode mapLeaves(JsonNode node, UnaryOperator<JsonNode> leaf) {
        return rewriteTree(node, UnaryOperator.identity(), leaf);
    }

    private static JsonNode rewriteTree(JsonNode node, UnaryOperator<String> key, UnaryOperator<JsonNode> leaf) {
        if (node.isObject()) {
            ObjectNode out = object();
            node.properties().forEach(e -> out.set(key.apply(e.getKey()), rewriteTree(e.getValue(), key, leaf)));
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = array();
            node.forEach(x -> out.add(rewriteTree(x, key, leaf)));
            return out;
        }
        return leaf.apply(node);
    }

    /**
     * The common shape of a list result: {@code out} with {@code "count"} (the number of items) and then
     * {@code key} (the items, each written by {@code item}); returns {@code out}.
     */
    public static <T> ObjectNode counted(ObjectNode out, String key, List<T> items, Function<T, ? extends JsonNode> item) {
        out.put("count", items.size());
        ArrayNode list = out.putArray(key);
        for (T t : items) list.add(item.apply(t));
        return out;
    }

    /** Compact JSON text of any value (records included). */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String pretty(Object value) {
        try {
            return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses JSON text; throws {@link JsonProcessingException} wrapped as unchecked on bad input. */
    public static JsonNode parse(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(String text, Class<T> type) {
        try {
            return MAPPER.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T convert(Object value, Class<T> type) {
        return MAPPER.convertValue(value, type);
    }

    public static JsonNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
