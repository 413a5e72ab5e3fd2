package dev.openagent.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits text into the word-like tokens the policy reads and points at. A token is a run of
 * letters and digits, joined across the connectors {@code - . : _ ' /} when a letter or digit
 * follows them, so ids ({@code P1234}, {@code R-12345}), codes, dates, times, phone numbers
 * ({@code +1-555-1234}) and decimals are single tokens, while names are one token per word.
 * Everything else (JSON punctuation, spaces) separates tokens. Offsets point into the source
 * text, so a span of tokens maps back to the exact text the agent read.
 */
public final class Tokenizer {
    /** Longer runs are cut: no value the policy copies is this long. */
    static final int MAX_TOKEN_CHARS = 40;

    private Tokenizer() {}

    /** A token and where it sits in its source text ({@code [start, end)}). */
    public record Token(String text, int start, int end) {
        public String lower() { return text.toLowerCase(Locale.ROOT); }
    }

    public static List<Token> tokenize(String text) {
        return tokenize(text, Integer.MAX_VALUE);
    }

    /** At most {@code max} tokens, from the start of the text. */
    public static List<Token> tokenize(String text, int max) {
        List<Token> out = new ArrayList<>();
        if (text == null) return out;
        int n = text.length();
        int i = 0;
        while (i < n && out.size() < max) {
            char c = text.charAt(i);
            boolean plusNumber = c == '+' && i + 1 < n && Character.isDigit(text.charAt(i + 1));
            if (!Character.isLetterOrDigit(c) && !plusNumber) {
                i++;
                continue;
            }
            int start = i++;
            while (i < n) {
                char d = text.charAt(i);
                if (Character.isLetterOrDigit(d)) {
                    i++;
                } else if (isConnector(d) && i + 1 < n && Character.isLetterOrDigit(text.charAt(i + 1))) {
                    i += 2;
                } else {
                    break;
                }
            }
            int end = Math.min(i, start + MAX_TOKEN_CHARS);
            out.add(new Token(text.substring(start, end), start, end));
        }
        return out;
    }

    private static boolean isConnector(char c) {
        return c == '-' || c == '.' || c == ':' || c == '_' || c == '\'' || c == '/';
    }

    /** The token as a number when it is one ({@code 4.5}, {@code 12}, {@code -3}), else NaN. */
    public static double number(String token) {
        int n = token.length();
        if (n == 0 || n > 18) return Double.NaN;
        int i = token.charAt(0) == '-' ? 1 : 0;
        boolean digits = false;
        boolean dot = false;
        for (; i < n; i++) {
            char c = token.charAt(i);
            if (c >= '0' && c <= '9') {
                digits = true;
            } else if (c == '.' && !dot) {
                dot = true;
            } else {
                return Double.NaN;
            }
        }
        return digits ? Double.parseDouble(token) : Double.NaN;
    }

    /**
     * The parts of an identifier: {@code place_id} -> place, id; {@code findNearby} -> find, nearby.
     * A single-part token yields itself.
     */
    public static List<String> subwords(String token) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < token.length(); i++) {
            char c = token.charAt(i);
            boolean split = !Character.isLetterOrDigit(c);
            boolean camel = i > 0 && Character.isUpperCase(c) && Character.isLowerCase(token.charAt(i - 1));
            if ((split || camel) && !cur.isEmpty()) {
                out.add(cur.toString().toLowerCase(Locale.ROOT));
                cur.setLength(0);
            }
            if (!split) cur.append(c);
        }
        if (!cur.isEmpty()) out.add(cur.toString().toLowerCase(Locale.ROOT));
        return out;
    }

    /** The letter/digit pattern of a token: {@code P1234} -> {@code A9}, {@code 2026-12-07} -> {@code 9-9-9}. */
    public static String shape(String token) {
        StringBuilder sb = new StringBuilder();
        char last = 0;
        int run = 0;
        for (int i = 0; i < token.length() && sb.length() < 12; i++) {
            char c = token.charAt(i);
            char k = Character.isUpperCase(c) ? 'A' : Character.isLowerCase(c) ? 'a' : Character.isDigit(c) ? '9' : c;
            if (k == last) {
                run++;
                // Runs are shortened to two characters, with a marker for long runs: 'aa+' vs 'aa'.
                if (run == 3) sb.append('+');
                if (run >= 2) continue;
            } else {
                run = 0;
            }
            sb.append(k);
            last = k;
        }
        return sb.toString();
    }
}
