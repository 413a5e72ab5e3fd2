package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
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

    private static final java.util.regex.Pattern RESERVED = java.util.regex.Pattern.compile("(?i)true|false|yes|no|null|on|off");

    public static String yaml(JsonNode v) {
        StringBuilder sb = new StringBuilder();
        yaml(sb, v, 0, null);
        return sb.toString().stripTrailing();
    }

    /** {@code first}: what stands before the first line instead of its indentation ("- " for list items). */
    private static void yaml(StringBuilder sb, JsonNode v, int depth, String first) {
        String pad = depth < PADS.length ? PADS[depth] : "  ".repeat(depth);
        if (v.isObject()) {
            boolean isFirst = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                var e = it.next();
                JsonNode c = e.getValue();
                if (isFirst && first != null) sb.append(pad, 0, Math.max(0, pad.length() - 2)).append(first);
                else sb.append(pad);
                isFirst = false;
                sb.append(e.getKey()).append(':');
                if (c.isContainerNode() && !c.isEmpty()) {
                    sb.append('\n');
                    yaml(sb, c, depth + 1, null);
                } else {
                    sb.append(' ');
                    scalar(sb, c);
                    sb.append('\n');
                }
            }
        } else if (v.isArray()) {
            for (JsonNode item : v) {
                if (item.isObject() && !item.isEmpty()) {
                    yaml(sb, item, depth + 1, "- ");
                } else {
                    sb.append(pad).append("- ");
                    scalar(sb, item);
                    sb.append('\n');
                }
            }
        } else {
            sb.append(pad);
            scalar(sb, v);
            sb.append('\n');
        }
    }

    private static void scalar(StringBuilder sb, JsonNode v) {
        if (v.isNull()) {
            sb.append("null");
        } else if (v.isContainerNode()) {
            sb.append(v.isArray() ? "[]" : "{}");
        } else if (!v.isTextual()) {
            sb.append(v.asText());
        } else {
            String s = v.asText();
            if (plain(s)) sb.append(s);
            else sb.append('"').append(s.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
    }

    /** Whether a string can stand unquoted in YAML: a letter first, then letters, digits and a few safe marks. */
    private static boolean plain(String s) {
        if (s.isEmpty() || !Character.isLetter(s.charAt(0)) || s.endsWith(" ")) return false;
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == ' ' || c == '.' || c == ',' || c == '\'' || c == '/' || c == '+' || c == '-')) return false;
        }
        return !RESERVED.matcher(s).matches();
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
                Map<String, Integer> cols = new java.util.LinkedHashMap<>();
                List<Map<Integer, String>> rows = new ArrayList<>();
                for (JsonNode item : c) {
                    Map<Integer, String> row = new java.util.HashMap<>();
                    cells("", item, cols, row);
                    rows.add(row);
                }
                sb.append("| ").append(String.join(" | ", cols.keySet())).append(" |\n|");
                for (int i = 0; i < cols.size(); i++) sb.append(" --- |");
                sb.append('\n');
                for (Map<Integer, String> row : rows) {
                    sb.append('|');
                    for (int i = 0; i < cols.size(); i++) sb.append(' ').append(row.getOrDefault(i, "")).append(" |");
                    sb.append('\n');
                }
            } else {
                List<String> flat = new ArrayList<>();
                flatten(e.getKey(), c, flat, ": ");
                flat.forEach(f -> sb.append(f).append('\n'));
            }
        });
        return sb.toString().stripTrailing();
    }

    private static void cells(String prefix, JsonNode v, Map<String, Integer> cols, Map<Integer, String> row) {
        if (v.isObject()) {
            v.fields().forEachRemaining(e -> cells(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), cols, row));
        } else if (v.isArray()) {
            for (int i = 0; i < v.size(); i++) cells(prefix + "." + i, v.get(i), cols, row);
        } else {
            Integer k = cols.computeIfAbsent(prefix, x -> cols.size());
            String text = v.isNull() ? "null" : v.asText();
            row.put(k, text.indexOf('|') < 0 ? text : text.replace("|", "/"));
        }
    }

    /**
     * The sentences of a prose text, in order: its lines, each split after '.', '!' or '?' where the
     * next sentence starts with a capital letter or a digit.
     */
    public static List<String> sentences(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String l = line.strip();
            int start = 0;
            for (int i = 0; i + 2 < l.length(); i++) {
                char c = l.charAt(i);
                char next = l.charAt(i + 2);
                if ((c == '.' || c == '!' || c == '?') && l.charAt(i + 1) == ' ' && (Character.isUpperCase(next) || Character.isDigit(next))) {
                    out.add(l.substring(start, i + 1));
                    start = i + 2;
                }
            }
            if (start < l.length()) out.add(l.substring(start));
        }
        return out;
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
        return Json.rewrite(v, rename, UnaryOperator.identity());
    }
}
