package dev.openagent.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a field name shown in a result is the name a description or a protocol gives: the same words whatever
 * the case and separators ({@code confirmation_id}, {@code confirmationId}, {@code confirmationId2} as a name made
 * unique), and, where a shift declares {@link dev.openagent.shift.Allowance#KEY_SYNONYMS}, each word or a synonym of
 * it from the environment's vocabulary ({@code place_id} as {@code venueRef}).
 */
final class Names {
    private final Map<String, List<String>> synonyms;

    /** @param synonyms word -> its synonyms; empty where no shift allows reading renamed fields */
    Names(Map<String, List<String>> synonyms) {
        this.synonyms = synonyms;
    }

    boolean same(String shown, String name) {
        List<String> a = words(shown);
        List<String> b = words(name);
        if (a.isEmpty() || a.size() != b.size()) return String.join("", a).equals(String.join("", b)) && !a.isEmpty();
        for (int i = 0; i < a.size(); i++) {
            String w = a.get(i);
            String n = b.get(i);
            if (w.equals(n)) continue;
            List<String> alternatives = synonyms.get(n);
            if (alternatives == null || alternatives.stream().noneMatch(x -> words(x).equals(List.of(w)))) return false;
        }
        return true;
    }

    /** The words of a name: split at separators and at lower-to-upper case changes, lower case, a trailing number dropped. */
    static List<String> words(String name) {
        String n = name.replaceAll("\\d+$", "");
        List<String> out = new ArrayList<>();
        StringBuilder w = new StringBuilder();
        for (int i = 0; i < n.length(); i++) {
            char c = n.charAt(i);
            boolean cut = !Character.isLetterOrDigit(c) || (Character.isUpperCase(c) && i > 0 && Character.isLowerCase(n.charAt(i - 1)));
            if (cut && !w.isEmpty()) {
                out.add(w.toString().toLowerCase(Locale.ROOT));
                w.setLength(0);
            }
            if (Character.isLetterOrDigit(c)) w.append(c);
        }
        if (!w.isEmpty()) out.add(w.toString().toLowerCase(Locale.ROOT));
        return out;
    }
}
