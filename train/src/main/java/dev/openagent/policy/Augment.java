package dev.openagent.policy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Name substitution, a training-data augmentation: in a demonstrated tool call, a name the call
 * copies (a string argument made of capitalised words, such as a city or a guest) is replaced,
 * everywhere the agent reads it and in the call, by an invented name of another length. A pointer
 * then cannot learn "the city is the one-word name before the question mark" from a training split
 * whose cities happen to be one word; it has to learn where a city is said. The invented words
 * are outside the vocabulary, as unseen test names are, except that a later word of a longer name is
 * sometimes an ordinary word the agent reads, capitalised ("Drelan City", "Kosu Name Bay"): test names
 * such as {@code Crescent City} end in a word the vocabulary knows from the tools ("City to search in"),
 * and without such names in training the copied span learnt to stop before it ({@code "city":"Crescent"}).
 */
final class Augment {
    private static final Pattern NAME = Pattern.compile("\\p{Lu}[\\p{L}']*(?: \\p{Lu}[\\p{L}']*)*");
    private static final String[] ONSETS = {"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "dr", "kl", "st", "tr"};
    private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ea", "ou"};
    private static final String[] CODAS = {"", "", "n", "r", "l", "s", "th", "nd"};

    private Augment() {}

    /** The demonstration with one copied name replaced, or itself when its action copies no name. */
    static Demonstrations.Demo names(Demonstrations.Demo d, SplittableRandom rnd) {
        if (!(d.action() instanceof Action.CallTools call) || call.calls().size() != 1) return d;
        JsonNode args = parse(call.calls().getFirst().arguments());
        if (args == null || !args.isObject()) return d;
        List<String> names = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = args.fields(); it.hasNext(); ) {
            JsonNode v = it.next().getValue();
            if (v.isTextual() && NAME.matcher(v.asText()).matches() && v.asText().length() >= 3) names.add(v.asText());
        }
        if (names.isEmpty()) return d;
        String old = names.get(rnd.nextInt(names.size()));
        int words = old.split(" ").length;
        int n;
        do n = 1 + rnd.nextInt(3); while (n == words && rnd.nextInt(3) > 0);
        List<String> ordinary = ordinaryWords(d.view());
        StringBuilder fresh = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) fresh.append(' ');
            boolean known = i > 0 && !ordinary.isEmpty() && rnd.nextDouble() < KNOWN_WORD;
            fresh.append(known ? capitalised(ordinary.get(rnd.nextInt(ordinary.size()))) : word(rnd));
        }
        Pattern p = Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(old) + "(?![\\p{L}\\p{N}])");
        String to = Matcher.quoteReplacement(fresh.toString());
        View v = d.view();
        List<String> replies = v.userReplies().stream().map(r -> p.matcher(r).replaceAll(to)).toList();
        List<View.Turn> turns = v.turns().stream().map(t -> new View.Turn(replace(t.action(), p, to),
                t.observations().stream().map(o -> o.withText(p.matcher(o.text()).replaceAll(to))).toList())).toList();
        View view = new View(p.matcher(v.query()).replaceAll(to), v.rules(), v.tools(), replies, turns);
        return new Demonstrations.Demo(view, replace(d.action(), p, to), d.task());
    }

    private static Action replace(Action a, Pattern p, String to) {
        return switch (a) {
            case Action.CallTools c -> new Action.CallTools(c.calls().stream()
                    .map(x -> new Action.ToolCall(x.id(), x.name(), p.matcher(x.arguments()).replaceAll(to))).toList());
            case Action.AskUser q -> new Action.AskUser(p.matcher(q.question()).replaceAll(to));
            default -> a;
        };
    }

    /** Chance that a word after the first of an invented name is an ordinary word the agent reads. */
    static final double KNOWN_WORD = 0.4;

    private static final Pattern LOWER_WORD = Pattern.compile("(?<![\\p{L}\\p{N}_])\\p{Ll}{3,}(?![\\p{L}\\p{N}_])");

    /** Lower-case words of three letters or more in the request and the tools' descriptions, in order, without repeats. */
    static List<String> ordinaryWords(View v) {
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        StringBuilder text = new StringBuilder(v.query());
        for (var t : v.tools()) text.append(' ').append(t.description());
        Matcher m = LOWER_WORD.matcher(text);
        while (m.find()) out.add(m.group());
        return List.copyOf(out);
    }

    private static String capitalised(String w) {
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    /** An invented capitalised word of two or three syllables. */
    private static String word(SplittableRandom rnd) {
        StringBuilder w = new StringBuilder();
        int syllables = 2 + rnd.nextInt(2);
        for (int i = 0; i < syllables; i++) {
            w.append(ONSETS[rnd.nextInt(ONSETS.length)]).append(VOWELS[rnd.nextInt(VOWELS.length)]);
        }
        w.append(CODAS[rnd.nextInt(CODAS.length)]);
        return Character.toUpperCase(w.charAt(0)) + w.substring(1);
    }

    private static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }
}
