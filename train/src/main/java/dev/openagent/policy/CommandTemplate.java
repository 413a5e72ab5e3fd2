package dev.openagent.policy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One command form an agent of a text-command environment read in the {@code help} text, such as
 * {@code take <thing> from <furniture>}: literal words and slots. The policy treats each form as a
 * tool of its action pointer: the form is the tool's name, the help line's description its
 * description, and each slot a string parameter filled by a span copied from the context. Filling
 * the slots gives the command ({@code take red mug from countertop}).
 *
 * @param text        the form as help printed it, lower case, slots in angle brackets
 * @param description what help says the command does
 * @param parts       literal words and slots ({@code <thing>}) in order
 */
record CommandTemplate(String text, String description, List<String> parts) {
    CommandTemplate {
        parts = List.copyOf(parts);
    }

    /** What an agent may send before it has read any help: {@code help} itself (the system prompt says so). */
    static final CommandTemplate HELP = new CommandTemplate("help", "show the list of valid commands", List.of("help"));

    static boolean isSlot(String part) {
        return part.length() > 2 && part.startsWith("<") && part.endsWith(">");
    }

    /** The slot names in order, as parameter names ({@code <thing or furniture>} is {@code thing_or_furniture}). */
    List<String> slots() {
        List<String> out = new ArrayList<>();
        for (String p : parts) if (isSlot(p)) out.add(slotName(p));
        return out;
    }

    private static String slotName(String slot) {
        return slot.substring(1, slot.length() - 1).strip().replace(' ', '_');
    }

    /** The form as a tool of the action pointer: string parameters, one per slot, all required. */
    ToolSpec toolSpec() {
        ObjectNode schema = Json.object();
        schema.put("type", "object");
        ObjectNode props = schema.putObject("properties");
        var required = schema.putArray("required");
        for (String p : parts) {
            if (!isSlot(p)) continue;
            String name = slotName(p);
            if (props.has(name)) continue;
            ObjectNode prop = props.putObject(name);
            prop.put("type", "string");
            prop.put("description", "the " + name.replace('_', ' ') + ", written as the observations name it");
            required.add(name);
        }
        return new ToolSpec(text, description, schema);
    }

    /** The command with the slots filled in order. */
    String fill(List<String> values) {
        StringBuilder sb = new StringBuilder();
        int k = 0;
        for (String p : parts) {
            if (!sb.isEmpty()) sb.append(' ');
            sb.append(isSlot(p) ? (k < values.size() ? values.get(k++).strip() : "") : p);
        }
        return sb.toString().strip();
    }

    /**
     * The slot values of a normalised command of this form, or null when it is not of this form.
     * Literal words must match; each slot takes one word or more, as many as leave the rest matchable
     * from the right (so {@code take red mug from countertop} splits at the last "from", as the
     * interpreters do).
     */
    List<String> match(String normalizedCommand) {
        String[] words = normalizedCommand.isEmpty() ? new String[0] : normalizedCommand.split(" ");
        List<String> values = new ArrayList<>();
        return match(words, 0, 0, values) ? values : null;
    }

    private boolean match(String[] words, int w, int p, List<String> values) {
        if (p == parts.size()) return w == words.length;
        String part = parts.get(p);
        if (!isSlot(part)) return w < words.length && words[w].equals(part) && match(words, w + 1, p + 1, values);
        for (int end = words.length; end > w; end--) {
            values.add(String.join(" ", java.util.Arrays.asList(words).subList(w, end)));
            if (match(words, end, p + 1, values)) return true;
            values.removeLast();
        }
        return false;
    }

    int literals() {
        return (int) parts.stream().filter(p -> !isSlot(p)).count();
    }

    /**
     * The command forms of a help text: every indented line whose usage (the text before a run of
     * two spaces) is words and {@code <slots>}, plus forms quoted in its description
     * ({@code (also: 'put <thing> on <furniture>')}) with the same description. The protocol's
     * {@code ask <question>} is left out: asking is the policy's own action.
     */
    static List<CommandTemplate> parse(String help) {
        Map<String, CommandTemplate> out = new LinkedHashMap<>();
        for (String line : help.split("\n")) {
            String body = line.stripLeading();
            if (body.length() == line.length() || body.isEmpty()) continue;
            int gap = body.indexOf("  ");
            String usage = (gap < 0 ? body : body.substring(0, gap)).strip();
            String description = gap < 0 ? "" : body.substring(gap).strip();
            add(out, usage, description);
            int q = description.indexOf('\'');
            while (q >= 0) {
                int close = description.indexOf('\'', q + 1);
                if (close < 0) break;
                add(out, description.substring(q + 1, close), description);
                q = description.indexOf('\'', close + 1);
            }
        }
        return List.copyOf(out.values());
    }

    private static void add(Map<String, CommandTemplate> out, String usage, String description) {
        List<String> parts = parts(usage.toLowerCase(Locale.ROOT));
        if (parts == null || parts.isEmpty() || isSlot(parts.getFirst())) return;
        if (parts.getFirst().equals(Protocol.ASK_COMMAND)) return;
        String text = String.join(" ", parts);
        out.putIfAbsent(text, new CommandTemplate(text, description, parts));
    }

    /** Words and slots of a usage, or null when it is not one (prose, punctuation). */
    private static List<String> parts(String usage) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        int n = usage.length();
        while (i < n) {
            char c = usage.charAt(i);
            if (c == ' ') {
                i++;
            } else if (c == '<') {
                int close = usage.indexOf('>', i);
                if (close < 0) return null;
                parts.add("<" + usage.substring(i + 1, close).strip() + ">");
                i = close + 1;
            } else {
                int start = i;
                while (i < n && usage.charAt(i) != ' ' && usage.charAt(i) != '<') i++;
                String word = usage.substring(start, i);
                for (int k = 0; k < word.length(); k++) {
                    char d = word.charAt(k);
                    if (!Character.isLetterOrDigit(d) && d != '-' && d != '_') return null;
                }
                parts.add(word);
            }
        }
        return Commands.normalize(String.join(" ", parts)).isEmpty() ? null : parts;
    }
}
