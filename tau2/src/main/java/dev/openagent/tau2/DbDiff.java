package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Field-by-field differences between two JSON values (two databases' changes, a record and its gold twin). */
final class DbDiff {
    private DbDiff() {}

    /** The first difference, as "path: value (expected: value)". */
    static String first(JsonNode got, JsonNode want) {
        List<String> d = all(got, want, 1);
        return d.isEmpty() ? "none" : d.getFirst();
    }

    /** Up to {@code limit} differences, each "path: value (expected: value)"; numbers compare by value. */
    static List<String> all(JsonNode got, JsonNode want, int limit) {
        List<String> out = new ArrayList<>();
        walk("", got, want, out, limit);
        return out;
    }

    private static void walk(String path, JsonNode a, JsonNode b, List<String> out, int limit) {
        if (out.size() >= limit) return;
        if (a == null || a.isMissingNode()) a = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        if (b == null || b.isMissingNode()) b = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) walk(path + "/" + k, a.get(k), b.get(k), out, limit);
            return;
        }
        if (a.isArray() && b.isArray() && a.size() == b.size()) {
            for (int i = 0; i < a.size(); i++) walk(path + "/" + i, a.get(i), b.get(i), out, limit);
            return;
        }
        boolean same = a.isNumber() && b.isNumber() ? a.doubleValue() == b.doubleValue() : a.equals(b);
        if (!same) out.add((path.isEmpty() ? "/" : path) + ": " + show(a) + " (expected: " + show(b) + ")");
    }

    private static String show(JsonNode n) {
        if (n.isMissingNode()) return "absent";
        String s = n.toString();
        return s.length() > 120 ? s.substring(0, 117) + "..." : s;
    }
}
