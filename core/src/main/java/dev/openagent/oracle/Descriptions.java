package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Tells which shown tool (or command, or parameter) does what a world one does, by what the agent reads of it:
 * its description, never its name. The shown description that holds the most of the world description's words
 * wins, and of those the one that adds the fewest words of its own (a dry run or a queued variant describes
 * itself with the real tool's words and more). Below {@link #OFFERED} of the words the world tool is not offered.
 */
final class Descriptions {
    private Descriptions() {}

    /** The share of the world description's words a shown description must hold to be the same tool. */
    static final double OFFERED = 0.8;

    private static final Set<String> STOP = Set.of("a", "an", "the", "of", "to", "in", "on", "and", "or", "for", "by", "with", "as", "is",
            "it", "its", "this", "that", "be", "at", "from", "e", "g");

    /** The words of a text that carry meaning, lower case. */
    static Set<String> words(String text) {
        // By hand rather than a regex split: the view check reads every shown description for every world tool it
        // looks for, and a crowded list shows hundreds.
        Set<String> out = new HashSet<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0, n = text.length(); i <= n; i++) {
            char c = i < n ? Character.toLowerCase(text.charAt(i)) : ' ';
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
                w.append(c);
            } else if (!w.isEmpty()) {
                String word = w.toString();
                if (!STOP.contains(word)) out.add(word);
                w.setLength(0);
            }
        }
        return out;
    }

    /**
     * How well a shown text describes what a world text describes: whether it holds the world text whole (a note
     * added before or after leaves it whole), the share of the world text's words it holds, and how many words of its
     * own it adds (fewer is closer).
     */
    record Score(boolean whole, double held, int extra) implements Comparable<Score> {
        @Override
        public int compareTo(Score o) {
            if (whole != o.whole) return whole ? 1 : -1;
            int c = Double.compare(held, o.held);
            return c != 0 ? c : Integer.compare(o.extra, extra);
        }
    }

    static Score score(String world, String shown) {
        return score(world, words(world), shown);
    }

    /** As {@link #score(String, String)}, with the world text's words read once for many shown texts. */
    private static Score score(String world, Set<String> w, String shown) {
        Set<String> s = words(shown);
        if (w.isEmpty()) return new Score(false, 0, s.size());
        int held = 0;
        for (String x : w) if (s.contains(x)) held++;
        int extra = s.size() - held;
        // A text that holds the world text whole holds all its words.
        boolean whole = held == w.size() && flat(shown).contains(flat(world));
        return new Score(whole, (double) held / w.size(), extra);
    }

    /** Lower case, runs of white space as one space. */
    private static String flat(String text) {
        return text.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    /** The shown tool that does what the world tool does, if one is offered ({@code ask_user} aside: never renamed). */
    static Optional<ToolSpec> tool(ToolSpec world, List<ToolSpec> shown) {
        if (Protocol.ASK_USER.equals(world.name())) return shown.stream().filter(t -> t.name().equals(Protocol.ASK_USER)).findFirst();
        Set<String> worldWords = words(world.description());
        if (worldWords.isEmpty()) {
            // Nothing to read but the name: a tool without a description is known by its name alone.
            return shown.stream().filter(t -> t.name().equals(world.name())).findFirst();
        }
        Optional<ToolSpec> described = shown.stream().filter(t -> !t.name().equals(Protocol.ASK_USER))
                .map(t -> Map.entry(t, score(world.description(), worldWords, t.description())))
                .filter(e -> e.getValue().held() >= OFFERED)
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey);
        if (described.isPresent()) return described;
        // No shown description says what the world tool does (a server that declares none, tool.bare, perhaps with a
        // note another shift added): the tool under the world tool's own name is it, its name being all that is left to
        // go by. Where a description says what it does, it wins, so a name that lies (tool.semantic-trap) is never taken.
        return shown.stream().filter(t -> t.name().equals(world.name())).findFirst();
    }

    /**
     * A tool the world does not have (a shift added it: a support-ticket reader), named by a plan: the shown tool
     * whose description holds the most words of that name.
     */
    static Optional<ToolSpec> byNameWords(String name, List<ToolSpec> shown, Set<String> taken) {
        Set<String> w = words(name.replace('_', ' '));
        w.removeAll(Set.of("get", "set", "read", "list", "find", "do"));
        if (w.isEmpty()) return Optional.empty();
        Optional<ToolSpec> described = shown.stream().filter(t -> !taken.contains(t.name()) && !t.name().equals(Protocol.ASK_USER))
                .map(t -> Map.entry(t, score(String.join(" ", w), t.description())))
                .filter(e -> e.getValue().held() > 0)
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey);
        // As for the world's tools: where no description says it, the tool under that very name (tool.bare).
        return described.isPresent() ? described : shown.stream().filter(t -> t.name().equals(name) && !taken.contains(name)).findFirst();
    }

    /**
     * Which shown parameter takes each world parameter (world name -> shown name), by their descriptions, one to
     * one: the best-held pairs first. A parameter without a description (world or shown) is known by its name.
     */
    static Map<String, String> params(ToolSpec world, ToolSpec shown) {
        Map<String, String> worldDescs = descriptions(world.parameters());
        Map<String, String> shownDescs = descriptions(shown.parameters());
        record Pair(String world, String shown, Score score) {}
        List<Pair> pairs = new ArrayList<>();
        for (var w : worldDescs.entrySet()) {
            for (var s : shownDescs.entrySet()) {
                // A parameter with no description on either side is known by its name alone.
                Score sc = words(w.getValue()).isEmpty() || words(s.getValue()).isEmpty()
                        ? new Score(w.getKey().equals(s.getKey()), w.getKey().equals(s.getKey()) ? 1 : 0, 0)
                        : score(w.getValue(), s.getValue());
                if (sc.held() > 0) pairs.add(new Pair(w.getKey(), s.getKey(), sc));
            }
        }
        pairs.sort(Comparator.comparing(Pair::score).reversed());
        Map<String, String> out = new LinkedHashMap<>();
        Set<String> used = new HashSet<>();
        for (Pair p : pairs) {
            if (out.containsKey(p.world()) || used.contains(p.shown())) continue;
            out.put(p.world(), p.shown());
            used.add(p.shown());
        }
        return out;
    }

    /** Parameter name -> description, in schema order. */
    static Map<String, String> descriptions(ObjectNode schema) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
            var e = it.next();
            out.put(e.getKey(), e.getValue().path("description").asText(""));
        }
        return out;
    }

    /** The required parameters of a schema. */
    static List<String> required(ObjectNode schema) {
        List<String> out = new ArrayList<>();
        schema.path("required").forEach(r -> out.add(r.asText()));
        return out;
    }
}
