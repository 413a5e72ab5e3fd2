package dev.openagent.shift.query;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ExactWords;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * query.noise: typos, casing, spacing and abbreviations in the request. What a tool needs exactly is never
 * touched, not even its letter case: words shaped like ids, codes, numbers, dates, e-mail addresses and column
 * names ({@link ExactWords#shaped}), and the words the environment says its tools need exactly
 * ({@code EnvFacts.exactWords}: by default every word of the gold plan's arguments and of the tools' schemas).
 * Capitalised words (names) never get typos either. Severity 1: spacing and casing of a few words; 2: plus
 * abbreviations and typos in about 10% of plain words; 3: plus 25% typos, every other word in lower case, no
 * final punctuation.
 */
public final class QueryNoise extends QueryShift {
    public static final Shift SHIFT = new Shift("query.noise", Tier.PERCEPTION, Dimension.Q,
            "Typos, casing, spacing and abbreviations in the request; names, dates, times and codes stay intact.",
            List.of(Shift.SEVERITY), QueryNoise::new);

    private static final Map<String, String> ABBREVIATIONS = abbreviations();

    private static Map<String, String> abbreviations() {
        Map<String, String> m = new HashMap<>();
        String[] pairs = {"please", "pls", "people", "ppl", "number", "no.", "you", "u", "are", "r", "with", "w/",
                "about", "abt", "reservation", "resv", "appointment", "appt", "information", "info", "thanks", "thx",
                "before", "b4", "telephone", "tel", "tomorrow", "tmrw", "because", "bc", "minutes", "mins",
                "restaurant", "restaurnt", "booking", "bkng", "and", "&", "at least", "min.", "at most", "max."};
        for (int i = 0; i < pairs.length; i += 2) m.put(pairs[i], pairs[i + 1]);
        return java.util.Collections.unmodifiableMap(m);
    }

    private QueryNoise(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        int sev = severity();
        String q = t.query();
        Set<String> exact = facts().exactWords(t, innerStart.tools());
        if (sev >= 2) {
            for (var e : ABBREVIATIONS.entrySet()) {
                if (e.getKey().contains(" ") && ExactWords.split(e.getKey()).stream().noneMatch(exact::contains) && rnd.nextDouble() < 0.7) {
                    q = q.replace(e.getKey(), e.getValue());
                }
            }
        }
        String[] words = q.split(" ");
        boolean[] kept = new boolean[words.length];
        double typo = sev == 1 ? 0 : sev == 2 ? 0.10 : 0.25;
        int recased = 0;
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            kept[i] = !w.isEmpty() && (ExactWords.shaped(w) || exact.contains(ExactWords.bare(w).toLowerCase(Locale.ROOT)));
            if (w.isEmpty() || kept[i]) continue;
            String bare = w.replaceAll("[^A-Za-z]", "");
            boolean name = !bare.isEmpty() && Character.isUpperCase(bare.charAt(0)) && i > 0;
            String lower = w.toLowerCase(Locale.ROOT);
            if (sev >= 2 && !name && ABBREVIATIONS.containsKey(stripPunct(lower)) && rnd.nextDouble() < 0.6) {
                w = lower.replace(stripPunct(lower), ABBREVIATIONS.get(stripPunct(lower)));
            } else if (!name && bare.length() >= 4 && bare.equals(bare.toLowerCase(Locale.ROOT)) && rnd.nextDouble() < typo) {
                w = typo(w);
            }
            if (sev >= 3) w = w.toLowerCase(Locale.ROOT);
            else if (!name && recased < 2 && rnd.nextDouble() < 0.15) {
                w = w.toUpperCase(Locale.ROOT);
                recased++;
            }
            words[i] = w;
        }
        // Spacing noise: a doubled space, or none after a comma, but never between two words kept exactly
        // (a name or an address of several words stays as written).
        boolean squeezeCommas = rnd.nextBoolean();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < words.length; i++) {
            if (i > 0) {
                boolean inside = kept[i - 1] && kept[i];
                boolean doubled = rnd.nextDouble() < 0.12 * sev;
                if (!inside && squeezeCommas && words[i - 1].endsWith(",")) sb.append("");
                else sb.append(doubled && !inside ? "  " : " ");
            }
            sb.append(words[i]);
        }
        String out = sb.toString();
        if (sev >= 3) out = out.replaceAll("[.?!]+$", "");
        if (sev == 1 && rnd.nextBoolean()) out = "  " + out;
        return t.withQuery(out);
    }

    private String typo(String w) {
        char[] c = w.toCharArray();
        int[] letters = java.util.stream.IntStream.range(0, c.length).filter(i -> Character.isLetter(c[i])).toArray();
        if (letters.length < 4) return w;
        int k = 1 + rnd.nextInt(letters.length - 2);
        int i = letters[k];
        int j = letters[k + 1];
        if (rnd.nextBoolean() && j == i + 1) {
            char x = c[i];
            c[i] = c[j];
            c[j] = x;
            return new String(c);
        }
        return new StringBuilder(w).deleteCharAt(i).toString();
    }

    private static String stripPunct(String w) {
        return w.replaceAll("[^a-z]", "");
    }
}
