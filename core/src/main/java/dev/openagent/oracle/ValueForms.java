package dev.openagent.oracle;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads values written in another common form back, as an agent that knows "1,250.00" is the number 1250 and
 * "Nov 27, 2026" the date 2026-11-27 would: numbers with thousands separators or trailing zeros, dates with the
 * month's name, times on the 12-hour clock (with a date or alone), and yes/no for true/false. It parses what a text
 * shows and compares the meaning with a value, so the value can be written back in the form the tools' schemas ask
 * for. The view solver uses it only where a shift declares {@link dev.openagent.shift.Allowance#VALUE_FORMATS}.
 */
final class ValueForms {
    private ValueForms() {}

    private static final Pattern PLAIN_NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");
    private static final Pattern ISO_DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern ISO_DATE_TIME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[T ](\\d{2}:\\d{2})");
    private static final Pattern HHMM = Pattern.compile("\\d{2}:\\d{2}");

    /** A number as written for people: digits in groups of three, maybe a fraction. */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.,-])-?\\d{1,3}(?:,\\d{3})*(?:\\.\\d+)?(?![\\w,]|\\.\\d)|(?<![\\w.,-])-?\\d+(?:\\.\\d+)?(?![\\w,]|\\.\\d)");
    private static final String MONTHS = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\\.?";
    private static final Pattern MONTH_FIRST = Pattern.compile("\\b" + MONTHS + " (\\d{1,2}),? (\\d{4})\\b");
    private static final Pattern DAY_FIRST = Pattern.compile("\\b(\\d{1,2}) " + MONTHS + ",? (\\d{4})\\b");
    private static final Pattern TWELVE_HOUR = Pattern.compile("(?<![\\w:])(\\d{1,2})(?::(\\d{2}))? ?([AaPp])\\.?[Mm]\\b\\.?");
    private static final Pattern YES_NO = Pattern.compile("(?i)\\b(yes|no)\\b");

    /** Whether {@code text} shows {@code value} (a number, ISO date or date-time, HH:MM time or boolean) in another form. */
    static boolean shows(String text, String value) {
        String v = value.strip();
        if (v.equals("true") || v.equals("false")) return yesNo(text, v.equals("true"));
        if (PLAIN_NUMBER.matcher(v).matches()) return number(text, new BigDecimal(v));
        Matcher dt = ISO_DATE_TIME.matcher(v);
        if (dt.matches()) return dateTime(text, dt.group(1), dt.group(2));
        if (ISO_DATE.matcher(v).matches()) return date(text, v) >= 0;
        if (HHMM.matcher(v).matches()) return time(text, v, 0) >= 0;
        return false;
    }

    private static boolean yesNo(String text, boolean value) {
        Matcher m = YES_NO.matcher(text);
        while (m.find()) if (m.group(1).equalsIgnoreCase("yes") == value) return true;
        return false;
    }

    private static boolean number(String text, BigDecimal value) {
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            try {
                if (new BigDecimal(m.group().replace(",", "")).compareTo(value) == 0) return true;
            } catch (NumberFormatException e) {
                // not a number after all
            }
        }
        return false;
    }

    /** Where a date with the month's name that is {@code iso} ends in the text, or -1. */
    private static int date(String text, String iso) {
        LocalDate want;
        try {
            want = LocalDate.parse(iso);
        } catch (DateTimeParseException e) {
            return -1;
        }
        for (Pattern p : new Pattern[] {MONTH_FIRST, DAY_FIRST}) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                boolean monthFirst = p == MONTH_FIRST;
                String month = monthFirst ? m.group(1) : m.group(2);
                int day = Integer.parseInt(monthFirst ? m.group(2) : m.group(1));
                int year = Integer.parseInt(m.group(3));
                int monthNumber = "JanFebMarAprMayJunJulAugSepOctNovDec".indexOf(month.substring(0, 3)) / 3 + 1;
                if (want.getYear() == year && want.getMonthValue() == monthNumber && want.getDayOfMonth() == day) return m.end();
            }
        }
        return -1;
    }

    /** Where a 12-hour time that is {@code hhmm} starts in the text at or after {@code from}, or -1. */
    private static int time(String text, String hhmm, int from) {
        LocalTime want;
        try {
            want = LocalTime.parse(hhmm, DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT));
        } catch (DateTimeParseException e) {
            return -1;
        }
        Matcher m = TWELVE_HOUR.matcher(text);
        while (m.find(from)) {
            int h = Integer.parseInt(m.group(1));
            int minutes = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
            boolean pm = Character.toLowerCase(m.group(3).charAt(0)) == 'p';
            if (h >= 1 && h <= 12 && minutes < 60 && want.getHour() == h % 12 + (pm ? 12 : 0) && want.getMinute() == minutes) return m.start();
            from = m.end();
        }
        return -1;
    }

    /** A date with the month's name followed by the time (on either clock). */
    private static boolean dateTime(String text, String isoDate, String hhmm) {
        int end = 0;
        while (true) {
            int at = date(text.substring(end), isoDate);
            if (at < 0) return false;
            at += end;
            String rest = text.substring(at);
            if (rest.startsWith(" " + hhmm) || rest.startsWith("T" + hhmm) || time(rest, hhmm, 0) == 1) return true;
            end = at;
        }
    }
}
