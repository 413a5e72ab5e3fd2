package dev.openagent.oracle;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes a value in the input format a parameter's description states, as an agent told "dates are written
 * DD.MM.YYYY" would: dates, 12-hour times and "Last, First" person names. The view solver uses it only where a
 * shift declares {@link dev.openagent.shift.Allowance#INPUT_FORMATS}.
 */
final class InputFormats {
    private InputFormats() {}

    private static final Pattern ISO_DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})");
    private static final Pattern HHMM = Pattern.compile("(\\d{1,2}):(\\d{2})");

    static String as(String description, String value) {
        String d = description.toLowerCase(Locale.ROOT);
        String v = value.strip();
        Matcher m = ISO_DATE.matcher(v);
        if (d.contains("dd.mm.yyyy") && m.matches()) return m.group(3) + "." + m.group(2) + "." + m.group(1);
        m = HHMM.matcher(v);
        if (d.contains("12-hour") && m.matches()) {
            int h = Integer.parseInt(m.group(1));
            String minutes = m.group(2).equals("00") ? "" : ":" + m.group(2);
            return (h % 12 == 0 ? 12 : h % 12) + minutes + (h >= 12 ? " PM" : " AM");
        }
        if (d.contains("'last, first'") && v.contains(" ") && !v.contains(",")) {
            int space = v.lastIndexOf(' ');
            return v.substring(space + 1) + ", " + v.substring(0, space);
        }
        return value;
    }
}
