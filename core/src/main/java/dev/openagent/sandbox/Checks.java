package dev.openagent.sandbox;

import java.util.List;
import java.util.Locale;

/** Deterministic answer checks: normalised, word-bounded containment. */
public final class Checks {
    private Checks() {}

    /** Lower case; every run of characters other than letters, digits and '.' becomes one space. */
    public static String normalize(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 2).append(' ');
        boolean space = true;
        for (int i = 0; i < text.length(); i++) {
            char c = Character.toLowerCase(text.charAt(i));
            boolean keep = Character.isLetterOrDigit(c) || (c == '.' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1)));
            if (keep) {
                sb.append(c);
                space = false;
            } else if (!space) {
                sb.append(' ');
                space = true;
            }
        }
        if (!space) sb.append(' ');
        return sb.toString();
    }

    /** Whether the answer mentions the value as whole words (ignoring case, punctuation and spacing). */
    public static boolean mentions(String answer, String value) {
        String v = normalize(value);
        return v.isBlank() || normalize(answer).contains(v);
    }

    /** Null when the answer holds every required value and none of the forbidden ones; else why not. */
    public static String answerProblem(String answer, List<String> mustContain, List<String> mustNotContain) {
        String a = normalize(answer);
        for (String need : mustContain) {
            if (!a.contains(normalize(need))) return "answer lacks '" + need + "'";
        }
        for (String bad : mustNotContain) {
            String b = normalize(bad);
            if (!b.isBlank() && a.contains(b)) return "answer names '" + bad + "', which is wrong";
        }
        return null;
    }

    public static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
