package dev.openagent.oracle;

import org.apache.commons.text.similarity.LevenshteinDistance;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The values a text labels with a name, whatever the rendering: JSON ({@code "key": value}), XML
 * ({@code <key>value</key>}), YAML or "key: value" lines, key=value lines with dotted paths, Markdown tables
 * (a column's header labels its cells) and the prose renderings ("the key is value"). Names compare without
 * case and separators, so {@code next_page_token}, {@code nextPageToken} and "next page token" are one name.
 */
final class Labels {
    private Labels() {}

    /** One labelled value. */
    record Label(String key, String value) {
        boolean named(String name) { return norm(key).equals(norm(name)); }
    }

    private static final Pattern JSON = Pattern.compile("\"([A-Za-z_][\\w.-]*)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?[\\d.]+(?:[eE][-+]?\\d+)?|true|false|null)");
    private static final Pattern XML = Pattern.compile("<([A-Za-z_][\\w.-]*)>([^<]*)</\\1>");
    private static final Pattern LINE = Pattern.compile("(?m)^[ \\t]*(?:- )?([A-Za-z_][\\w.-]*)\\s*[:=][ \\t]*(.*?)[ \\t]*$");
    private static final Pattern PROSE = Pattern.compile("(?i)\\bThe ([a-z][a-z0-9 ]{0,40}?) is ([^;]+?)(?:\\.(?:\\s|$)|;|$)");

    static List<Label> of(String text) {
        return of(text, true);
    }

    private static List<Label> of(String text, boolean nested) {
        List<Label> out = new ArrayList<>();
        List<Label> inStrings = new ArrayList<>();
        Matcher m = JSON.matcher(text);
        while (m.find()) {
            String value = m.group(3) != null ? View.decode(m.group(3)) : m.group(2);
            out.add(new Label(m.group(1), value));
            // A message in a JSON string ("detail": "... call it again with:\ntimeout_seconds=60") labels values of its
            // own, one level deep. They come last: the line patterns below read that line with the string's closing
            // quote and braces in its value ("60\"}}").
            if (nested && m.group(3) != null && value.indexOf('\n') >= 0) inStrings.addAll(of(value, false));
        }
        m = XML.matcher(text);
        while (m.find()) out.add(new Label(m.group(1), m.group(2).strip()));
        m = LINE.matcher(text);
        while (m.find()) {
            String key = m.group(1);
            int dot = key.lastIndexOf('.');
            if (dot >= 0) key = key.substring(dot + 1);
            out.add(new Label(key, unquote(m.group(2))));
        }
        tables(text, out);
        m = PROSE.matcher(text);
        while (m.find()) out.add(new Label(m.group(1), m.group(2).strip()));
        out.addAll(inStrings);
        return out;
    }

    /** The last value the text labels with this name (null when none). */
    static String last(String text, String name) {
        String found = null;
        for (Label l : of(text)) if (l.named(name) && !l.value().isEmpty() && !l.value().equals("null")) found = l.value();
        return found;
    }

    /** Markdown tables: each cell labelled with its column's header (the last part of a dotted header). */
    private static void tables(String text, List<Label> out) {
        String[] lines = text.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (!lines[i].strip().startsWith("|") || !lines[i + 1].strip().startsWith("| ---") && !lines[i + 1].strip().startsWith("|---")) continue;
            List<String> header = cells(lines[i]);
            for (int r = i + 2; r < lines.length && lines[r].strip().startsWith("|"); r++) {
                List<String> row = cells(lines[r]);
                for (int c = 0; c < Math.min(header.size(), row.size()); c++) {
                    String h = header.get(c);
                    int dot = h.lastIndexOf('.');
                    out.add(new Label(dot >= 0 ? h.substring(dot + 1) : h, row.get(c)));
                }
            }
        }
    }

    private static List<String> cells(String line) {
        String l = line.strip();
        if (l.startsWith("|")) l = l.substring(1);
        if (l.endsWith("|")) l = l.substring(0, l.length() - 1);
        List<String> out = new ArrayList<>();
        for (String c : l.split("\\|", -1)) out.add(c.strip());
        return out;
    }

    private static String unquote(String v) {
        String s = v.strip();
        if (s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"")) return View.decode(s.substring(1, s.length() - 1));
        return s;
    }

    /** The edit distance between two names (insertions, deletions, substitutions). */
    static int distance(String a, String b) {
        return LevenshteinDistance.getDefaultInstance().apply(a, b);
    }

    /** A name without case and separators. */
    static String norm(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (char c : name.toLowerCase(Locale.ROOT).toCharArray()) if (Character.isLetterOrDigit(c)) sb.append(c);
        return sb.toString();
    }
}
