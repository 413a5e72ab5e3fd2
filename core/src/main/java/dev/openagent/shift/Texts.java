package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Text helpers shared by shifts: whole-name replacement and JSON argument handling. */
public final class Texts {
    private Texts() {}

    private static final Pattern QUOTED = Pattern.compile("'([^']*)'");

    /**
     * Replaces whole identifiers (not parts of longer ones: {@code search_places} is left alone
     * inside {@code search_places_v2}) in one pass.
     */
    public static String replaceNames(String text, Map<String, String> names) {
        if (text == null || text.isEmpty() || names.isEmpty()) return text;
        List<String> keys = new ArrayList<>(names.keySet());
        keys.removeIf(k -> k.isEmpty() || k.equals(names.get(k)) || !text.contains(k));
        if (keys.isEmpty()) return text;
        keys.sort(Comparator.comparingInt(String::length).reversed());
        StringBuilder alt = new StringBuilder();
        for (String k : keys) {
            if (!alt.isEmpty()) alt.append('|');
            alt.append(Pattern.quote(k));
        }
        Matcher m = Pattern.compile("(?<![A-Za-z0-9_])(?:" + alt + ")(?![A-Za-z0-9_])").matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement(names.get(m.group())));
        m.appendTail(sb);
        return sb.toString();
    }

    /** The 'quoted' tokens of a message, in order. */
    public static List<String> quoted(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = QUOTED.matcher(text);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /** Rewrites every 'quoted' token of an error message. */
    public static String replaceQuoted(String text, Function<String, String> rename) {
        Matcher m = QUOTED.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement("'" + rename.apply(m.group(1)) + "'"));
        m.appendTail(sb);
        return sb.toString();
    }

    /** The call's arguments as an object, or null when they are not a JSON object (the environment reports that). */
    public static ObjectNode argsObject(String arguments) {
        if (arguments == null || arguments.isBlank()) return Json.object();
        try {
            JsonNode n = Json.parse(arguments);
            return n instanceof ObjectNode o ? o : null;
        } catch (UncheckedIOException | IllegalArgumentException e) {
            return null;
        }
    }

    public static String abbreviate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }

    /** "search_places" -> "searchPlaces". */
    public static String camel(String snake) {
        StringBuilder sb = new StringBuilder();
        boolean up = false;
        for (char c : snake.toCharArray()) {
            if (c == '_' || c == '-' || c == ' ') {
                up = sb.length() > 0;
            } else {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            }
        }
        return sb.toString();
    }
}
