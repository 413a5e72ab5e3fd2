package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Everything an agent has been shown in one episode, as text: the system prompt, the request, the tools (names,
 * descriptions, parameters and their allowed values) and every observation since, each kept with the call it
 * answers. Only what an agent reads goes in: an observation's text, never its payload or its error object.
 */
final class View {

    /**
     * One thing shown: its text (escapes of the rendering decoded; the user's self-corrections applied, {@link Corrections}),
     * as sent, and the call it answers (null for others).
     */
    record Shown(String text, String raw, String callId, Observation.Source source, int turn) {}

    private final List<Shown> shown = new ArrayList<>();
    private int turn;

    View(Start start) {
        shown.add(new Shown(decode(start.systemPrompt()), start.systemPrompt(), null, Observation.Source.ENV, 0));
        shown.add(new Shown(Corrections.read(decode(start.query())), start.query(), null, Observation.Source.USER, 0));
        for (ToolSpec t : start.tools()) shown.add(new Shown(describe(t), describe(t), null, Observation.Source.ENV, 0));
    }

    /** Takes in what the latest step showed. */
    void absorb(Step step) {
        turn++;
        if (step == null) return;
        for (Observation o : step.observations()) {
            // Any text may hold the user's words (a support ticket quotes the request).
            shown.add(new Shown(Corrections.read(decode(o.text())), o.text(), o.callId(), o.source(), turn));
        }
    }

    int turn() { return turn; }

    /** What answered the call with this id (empty when nothing did). */
    List<Shown> answers(String callId) {
        return shown.stream().filter(s -> callId.equals(s.callId())).toList();
    }

    /** What the latest step showed. */
    List<Shown> latest() {
        return shown.stream().filter(s -> s.turn() == turn && turn > 0).toList();
    }

    /** Whether the value was shown anywhere, as a whole word or phrase. */
    boolean shows(String value) {
        return seen(value) != null;
    }

    /**
     * The value as it was shown, as a whole word or phrase: exactly, or else with other letter case (the text as
     * shown); null when it was not shown.
     */
    String seen(String value) {
        for (Shown s : shown) if (contains(s.text(), value)) return value;
        String v = value.strip().replaceAll("\\s+", " ");
        String lower = v.toLowerCase(java.util.Locale.ROOT);
        for (Shown s : shown) {
            String t = s.text().replaceAll("\\s+", " ");
            int at = find(t.toLowerCase(java.util.Locale.ROOT), lower);
            if (at >= 0) return t.substring(at, at + v.length());
        }
        return null;
    }

    /** Whether the value was shown in a text for which {@code where} holds. */
    boolean shows(String value, java.util.function.Predicate<Shown> where) {
        for (Shown s : shown) if (where.test(s) && contains(s.text(), value)) return true;
        return false;
    }

    List<Shown> all() { return List.copyOf(shown); }

    /**
     * Whether {@code text} holds {@code value} as a whole: not as part of a longer word or number ("7" is not in
     * "17", "P12" not in "P123"). Runs of white space count as one space.
     */
    static boolean contains(String text, String value) {
        String v = value.strip().replaceAll("\\s+", " ");
        if (v.isEmpty()) return true;
        String t = text.indexOf('\n') >= 0 || text.contains("  ") ? text.replaceAll("\\s+", " ") : text;
        return find(t, v) >= 0;
    }

    /** Where {@code v} stands in {@code t} as a whole word or phrase, or -1. */
    private static int find(String t, String v) {
        if (v.isEmpty()) return 0;
        for (int i = t.indexOf(v); i >= 0; i = t.indexOf(v, i + 1)) {
            boolean before = i == 0 || !wordChar(t.charAt(i - 1)) || !wordChar(v.charAt(0));
            int end = i + v.length();
            boolean after = end == t.length() || !wordChar(t.charAt(end)) || !wordChar(v.charAt(v.length() - 1));
            if (before && after) return i;
        }
        return -1;
    }

    private static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c);
    }

    /** A tool as text: name, description, each parameter with its description and allowed values. */
    static String describe(ToolSpec t) {
        StringBuilder sb = new StringBuilder(t.name()).append(": ").append(t.description());
        JsonNode props = t.parameters().path("properties");
        for (Iterator<Map.Entry<String, JsonNode>> it = props.fields(); it.hasNext(); ) {
            var e = it.next();
            sb.append("\n  ").append(e.getKey()).append(": ").append(e.getValue().path("description").asText(""));
            JsonNode values = e.getValue().path("enum");
            if (values.isArray()) {
                List<String> vs = new ArrayList<>();
                values.forEach(v -> vs.add(v.asText()));
                sb.append(" (one of: ").append(String.join(", ", vs)).append(')');
            }
        }
        return decode(sb.toString());
    }

    /** The text as read: XML entities and JSON string escapes decoded. */
    static String decode(String text) {
        if (text.indexOf('&') < 0 && text.indexOf('\\') < 0) return text;
        String s = text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'").replace("&amp;", "&");
        if (s.indexOf('\\') < 0) return s;
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\' || i + 1 >= s.length()) {
                sb.append(c);
                continue;
            }
            char n = s.charAt(++i);
            switch (n) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (i + 4 < s.length()) {
                        try {
                            sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16));
                            i += 4;
                        } catch (NumberFormatException e) {
                            sb.append('\\').append(n);
                        }
                    } else {
                        sb.append('\\').append(n);
                    }
                }
                default -> sb.append(n);
            }
        }
        return sb.toString();
    }
}
