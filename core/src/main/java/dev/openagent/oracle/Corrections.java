package dev.openagent.oracle;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a user's message says once its self-corrections are applied: "in Thornbury — sorry, I meant Eastfield, not
 * Thornbury —." reads "in Eastfield.". The value taken back is dropped where it stands just before its correction, so
 * the view check finds only what the user meant. A correction it cannot place (its first value misspelt, as
 * query.noise may leave it) still gives the value meant; text it cannot parse at all stays as it is.
 */
final class Corrections {
    private static final Pattern CORRECTION = Pattern.compile(
            "(?i)\\s*—\\s*sorry,?\\s*i\\s+meant\\s+(.+?),\\s*not\\s+(.+?)\\s*—");

    private Corrections() {}

    static String read(String text) {
        if (text.indexOf('—') < 0) return text;
        Matcher m = CORRECTION.matcher(text);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (m.find()) {
            String before = text.substring(at, m.start()).stripTrailing();
            String first = m.group(2).strip();
            if (before.toLowerCase(Locale.ROOT).endsWith(first.toLowerCase(Locale.ROOT))) before = before.substring(0, before.length() - first.length());
            else before = before + " ";
            out.append(before).append(m.group(1).strip());
            at = m.end();
        }
        return out.append(text.substring(at)).toString();
    }
}
