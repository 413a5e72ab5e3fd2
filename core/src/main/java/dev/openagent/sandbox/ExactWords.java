package dev.openagent.sandbox;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Words as request rewriters see them: split at white space, surrounding punctuation off, lower case. */
public final class ExactWords {
    private ExactWords() {}

    /**
     * The words of a text, each without the punctuation around it, in lower case: split at white space and at what
     * joins words in paths, SQL and markup ("/srv/inbox" has "srv" and "inbox"; an e-mail address, a column name and
     * a hyphenated id stay whole).
     */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        for (String w : text.split("[\\s/\\\\=,;()'\"<>\\[\\]{}|*]+")) {
            String b = bare(w);
            if (!b.isEmpty()) out.add(b.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** A word without the punctuation around it ("(grace@example.org)," is "grace@example.org"). */
    public static String bare(String word) {
        int s = 0;
        int e = word.length();
        while (s < e && !Character.isLetterOrDigit(word.charAt(s))) s++;
        while (e > s && !Character.isLetterOrDigit(word.charAt(e - 1))) e--;
        return word.substring(s, e);
    }

    /**
     * Whether a word has the shape of something a tool needs exactly, whatever the environment declares: a digit
     * (ids, codes, numbers, dates, times), an '@' (e-mail addresses) or an '_' or an inner '.' (column and schema
     * names, host names).
     */
    public static boolean shaped(String word) {
        String b = bare(word);
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (Character.isDigit(c) || c == '@' || c == '_' || (c == '.' && i > 0 && i < b.length() - 1)) return true;
        }
        return false;
    }
}
