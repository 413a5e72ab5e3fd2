package dev.openagent.shift;

import org.apache.commons.text.similarity.LevenshteinDistance;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** "Did you mean": the known names a mistyped one is a few edits away from. */
final class Nearest {
    private Nearest() {}

    /**
     * At most {@code limit} of {@code known}, nearest first (ties in their given order), each within a third of the
     * typed name's length in edits (at least 2), ignoring case.
     */
    static List<String> names(String typed, List<String> known, int limit) {
        String t = typed.toLowerCase(Locale.ROOT);
        int bound = Math.max(2, t.length() / 3);
        LevenshteinDistance distance = new LevenshteinDistance(bound);
        record Scored(String name, int d) {}
        return known.stream().distinct()
                .map(k -> new Scored(k, distance.apply(t, k.toLowerCase(Locale.ROOT))))
                .filter(s -> s.d() >= 0)
                .sorted(Comparator.comparingInt(Scored::d))
                .limit(limit).map(Scored::name).toList();
    }
}
