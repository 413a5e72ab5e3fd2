package dev.openagent.shift.interaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/** Renders JSON values as XML, YAML, key=value lines, Markdown tables or English prose; renames keys. */
public final class Renderings {
    private Renderings() {}

    private static final String[] PADS = {"", "  ", "    ", "      ", "        ", "          ", "            "};

    public static String xml(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        xml(sb, "result", v, 0);
        return sb.toString().stripTrailing();
    }

    private static void xml(StringBuilder sb, String tag, JsonNode v, int depth) {
        String pad = PADS[Math.min(depth, PADS.length - 1)];
        if (v.isObject()) {
            sb.append(pad).append('<').append(tag).append(">\n");
            v.fields().forEachRemaining(e -> xml(sb, e.getKey(), e.getValue(), depth + 1));
            sb.append(pad).append("</").append(tag).append(">\n");
        } else if (v.isArray()) {
            sb.append(pad).append('<').append(tag).append(" count=\"").append(v.size()).append("\">\n");
            for (JsonNode item : v) xml(sb, "item", item, depth + 1);
            sb.append(pad).append("</").append(tag).append(">\n");
        } else if (v.isNull()) {
            sb.append(pad).append('<').append(tag).append("/>\n");
        } else {
            sb.append(pad).append('<').append(tag).append('>').append(escape(v.asText())).append("</").append(tag).append(">\n");
        }
    }

    private static String escape(String s) {
        if (s.indexOf('&') < 0 && s.indexOf('<') < 0 && s.indexOf('>') < 0) return s;
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static final java.util.regex.Pattern PLAIN = java.util.regex.Pattern.compile("[A-Za-z][A-Za-z0-9 .,'/+-]*");
    private static final java.util.regex.Pattern RESERVED = java.util.regex.Pattern.compile("(?i)true|false|yes|no|null|on|off");

    public static String yaml(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        yaml(sb, v, 0);
        return sb.toString().stripTrailing();
    }

    private static void yaml(StringBuilder sb, JsonNode v, int depth) {
        String pad = depth < PADS.length ? PADS[depth] : "  ".repeat(depth);
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode c = e.getValue();
                if (c.isContainerNode() && !c.isEmpty()) {
                    sb.append(pad).append(e.getKey()).append(":\n");
                    yaml(sb, c, depth + 1);
                } else {
                    sb.append(pad).append(e.getKey()).append(": ").append(scalar(c)).append('\n');
                }
            }
        } else if (v.isArray()) {
            for (JsonNode item : v) {
                if (item.isObject() && !item.isEmpty()) {
                    StringBuilder inner = new StringBuilder();
                    yaml(inner, item, depth + 1);
                    String text = inner.toString();
                    sb.append(pad).append("- ").append(text.substring(pad.length() + 2));
                } else {
                    sb.append(pad).append("- ").append(scalar(item)).append('\n');
                }
            }
        } else {
            sb.append(pad).append(scalar(v)).append('\n');
        }
    }

    private static String scalar(JsonNode v) {
        if (v.isNull()) return "null";
        if (v.isContainerNode()) return v.isArray() ? "[]" : "{}";
        if (!v.isTextual()) return v.asText();
        String s = v.asText();
        boolean plain = !s.isEmpty() && PLAIN.matcher(s).matches() && !s.endsWith(" ") && !RESERVED.matcher(s).matches();
        return plain ? s : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** key=value lines with dotted paths: {@code results.0.name=Blue Fig}. */
    public static String keyValues(JsonNode v) {
        List<String> lines = new ArrayList<>();
        flatten("", v, lines, "=");
        return String.join("\n", lines);
    }

    private static void flatten(String prefix, JsonNode v, List<String> out, String sep) {
        if (v.isObject()) {
            v.fields().forEachRemaining(e -> flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out, sep));
            if (v.isEmpty()) out.add(prefix + sep + "{}");
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) flatten(prefix + "." + i, v.get(i), out, sep);
            if (v.isEmpty()) out.add(prefix + sep + "[]");
        } else {
            out.add(prefix + sep + (v.isNull() ? "null" : v.asText()));
        }
    }

    /** Scalars as "key: value" lines, arrays of objects as Markdown tables. */
    public static String table(JsonNode v) {
        if (!v.isObject()) return keyValues(v);
        StringBuilder sb = new StringBuilder();
        v.fields().forEachRemaining(e -> {
            JsonNode c = e.getValue();
            if (c.isArray() && !c.isEmpty() && c.get(0).isObject()) {
                sb.append(e.getKey()).append(":\n");
                Set<String> cols = new LinkedHashSet<>();
                List<List<String>> rows = new ArrayList<>();
                for (JsonNode item : c) {
                    List<String> flat = new ArrayList<>();
                    flatten("", item, flat, "\u0000");
                    flat.forEach(f -> cols.add(f.substring(0, f.indexOf('\u0000'))));
                    rows.add(flat);
                }
                List<String> colList = new ArrayList<>(cols);
                sb.append("| ").append(String.join(" | ", colList)).append(" |\n");
                sb.append("|").append(" --- |".repeat(colList.size())).append('\n');
                for (List<String> flat : rows) {
                    String[] cells = new String[colList.size()];
                    java.util.Arrays.fill(cells, "");
                    for (String f : flat) {
                        int k = f.indexOf('\u0000');
                        cells[colList.indexOf(f.substring(0, k))] = f.substring(k + 1).replace("|", "/");
                    }
                    sb.append("| ").append(String.join(" | ", cells)).append(" |\n");
                }
            } else {
                List<String> flat = new ArrayList<>();
                flatten(e.getKey(), c, flat, ": ");
                flat.forEach(f -> sb.append(f).append('\n'));
            }
        });
        return sb.toString().stripTrailing();
    }

    /** English sentences: "place id: P1234; name: Blue Fig Bistro; ..." with lists numbered. */
    public static String prose(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        if (v.isObject()) {
            List<String> parts = new ArrayList<>();
            v.fields().forEachRemaining(e -> parts.add(proseField(e.getKey(), e.getValue())));
            sb.append("Here is what I found. ").append(String.join(". ", parts)).append('.');
        } else {
            sb.append("Result: ").append(proseValue(v)).append('.');
        }
        return sb.toString();
    }

    private static String proseField(String key, JsonNode v) {
        String k = key.replace('_', ' ');
        if (v.isArray()) {
            if (v.isEmpty()) return "The " + k + " list is empty";
            List<String> items = new ArrayList<>();
            for (int i = 0; i < v.size(); i++) items.add("(" + (i + 1) + ") " + proseValue(v.get(i)));
            return "The " + k + " are: " + String.join("; ", items);
        }
        return "The " + k + " is " + proseValue(v);
    }

    private static String proseValue(JsonNode v) {
        if (v.isObject()) {
            List<String> parts = new ArrayList<>();
            v.fields().forEachRemaining(e -> parts.add(e.getKey().replace('_', ' ') + " " + proseValue(e.getValue())));
            return String.join(", ", parts);
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(proseValue(x)));
            return items.isEmpty() ? "none" : String.join(" and ", items);
        }
        if (v.isNull()) return "unknown";
        if (v.isBoolean()) return v.asBoolean() ? "yes" : "no";
        return v.asText();
    }

    /** A copy with every object key renamed. */
    public static JsonNode renameKeys(JsonNode v, UnaryOperator<String> rename) {
        if (v.isObject()) {
            ObjectNode out = Json.object();
            v.fields().forEachRemaining(e -> out.set(rename.apply(e.getKey()), renameKeys(e.getValue(), rename)));
            return out;
        }
        if (v.isArray()) {
            var out = Json.array();
            v.forEach(x -> out.add(renameKeys(x, rename)));
            return out;
        }
        return v;
    }
}
