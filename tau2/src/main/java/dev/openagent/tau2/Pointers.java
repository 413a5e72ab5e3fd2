package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.GoldPlan;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where values are in earlier results: the data dependencies of a tau2 task's gold actions. */
final class Pointers {
    private Pointers() {}

    /** A number as a calculation writes it ("652.61 - 642.72"). */
    static final Pattern NUMBER = Pattern.compile("(?<![\\w.])\\d+(?:\\.\\d+)?(?![\\w.])");

    /**
     * For each text argument that comes from a result, a reference to the latest earlier result holding that value:
     * every id argument ({@code ..._id}) an earlier result holds, and any other text (an address an order lists) that
     * the agent was not shown before it called anything ({@code shownAtStart} says which were).
     */
    static Map<String, GoldPlan.Ref> refs(ObjectNode args, List<JsonNode> results, Predicate<String> shownAtStart) {
        Map<String, GoldPlan.Ref> refs = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
            var e = it.next();
            if (!e.getValue().isTextual() || e.getValue().asText().isBlank()) continue;
            if (!e.getKey().endsWith("_id") && shownAtStart.test(e.getValue().asText())) continue;
            GoldPlan.Ref ref = latest(results, e.getValue().asText(), false);
            if (ref != null) refs.put(e.getKey(), ref);
        }
        return refs;
    }

    /**
     * A calculation with each number an earlier result holds (a price, a balance) as a {@code {i:/pointer}}
     * placeholder to the latest such result, or null when none does.
     */
    static String template(String expression, List<JsonNode> results) {
        Matcher m = NUMBER.matcher(expression);
        StringBuilder sb = new StringBuilder();
        boolean any = false;
        while (m.find()) {
            GoldPlan.Ref ref = latest(results, m.group(), true);
            if (ref == null || ref.pointer().isEmpty()) {
                m.appendReplacement(sb, Matcher.quoteReplacement(m.group()));
            } else {
                m.appendReplacement(sb, Matcher.quoteReplacement("{" + ref.call() + ":" + ref.pointer() + "}"));
                any = true;
            }
        }
        m.appendTail(sb);
        return any ? sb.toString() : null;
    }

    private static GoldPlan.Ref latest(List<JsonNode> results, String value, boolean number) {
        for (int i = results.size() - 1; i >= 0; i--) {
            String at = number ? findNumber(results.get(i), value, "") : find(results.get(i), value, "");
            if (at != null) return new GoldPlan.Ref(i, at);
        }
        return null;
    }

    /** The JSON pointer of the first text equal to {@code value} in {@code node}, in document order, or null. */
    static String find(JsonNode node, String value, String at) {
        return first(node, n -> n.isTextual() && n.asText().equals(value), at);
    }

    /** The JSON pointer of the first number written as {@code value} in {@code node}, in document order, or null. */
    private static String findNumber(JsonNode node, String value, String at) {
        return first(node, n -> n.isNumber() && n.asText().equals(value), at);
    }

    private static String first(JsonNode node, Predicate<JsonNode> is, String at) {
        if (node.isValueNode()) return is.test(node) ? at : null;
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String p = first(node.get(i), is, at + "/" + i);
                if (p != null) return p;
            }
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                var e = it.next();
                String p = first(e.getValue(), is, at + "/" + e.getKey().replace("~", "~0").replace("/", "~1"));
                if (p != null) return p;
            }
        }
        return null;
    }
}
