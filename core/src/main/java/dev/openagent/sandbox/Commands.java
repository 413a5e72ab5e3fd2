package dev.openagent.sandbox;

/** Command text helpers shared by text environments: normalisation and splitting, without regular expressions. */
public final class Commands {
    private Commands() {}

    /**
     * Lower case, runs of whitespace as one space, surrounding spaces and trailing punctuation
     * removed, and the articles "the", "a" and "an" dropped: "Take the Red Mug." becomes "take red mug".
     */
    public static String normalize(String text) {
        StringBuilder out = new StringBuilder(text.length());
        int i = 0;
        int n = text.length();
        while (i < n) {
            while (i < n && isSeparator(text.charAt(i))) i++;
            int start = i;
            while (i < n && !isSeparator(text.charAt(i))) i++;
            if (start == i) break;
            String word = text.substring(start, i).toLowerCase(java.util.Locale.ROOT);
            if (word.equals("the") || word.equals("a") || word.equals("an")) continue;
            if (!out.isEmpty()) out.append(' ');
            out.append(word);
        }
        int end = out.length();
        while (end > 0 && isTrailingPunctuation(out.charAt(end - 1))) end--;
        out.setLength(end);
        while (!out.isEmpty() && out.charAt(out.length() - 1) == ' ') out.setLength(out.length() - 1);
        return out.toString();
    }

    private static boolean isSeparator(char c) {
        return Character.isWhitespace(c) || c == '"' || c == '\'' || c == '`';
    }

    private static boolean isTrailingPunctuation(char c) {
        return c == '.' || c == '!' || c == '?' || c == ',' || c == ';' || c == ':';
    }

    /** The text after a leading verb phrase ("go to kitchen" minus "go to" is "kitchen"), or null when it does not start with it. */
    public static String after(String command, String verb) {
        if (command.equals(verb)) return "";
        if (command.startsWith(verb) && command.charAt(verb.length()) == ' ') return command.substring(verb.length() + 1);
        return null;
    }

    /** Splits "red mug from countertop" at the last " from " into {"red mug", "countertop"}; null when the word is absent. */
    public static String[] splitAt(String text, String word) {
        String sep = " " + word + " ";
        int at = text.lastIndexOf(sep);
        if (at < 0) return null;
        return new String[]{text.substring(0, at), text.substring(at + sep.length())};
    }
}
