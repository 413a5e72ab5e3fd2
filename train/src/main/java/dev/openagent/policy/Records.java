package dev.openagent.policy;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.openagent.json.Json;

import java.io.IOException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The records of a JSON tool result that sit in a list beside others, and which of them holds the
 * smallest or largest value of a field ("the cheapest flight", "the nearest cafe", "the earliest
 * free time"): numbers, times ({@code 09:30}) and dates compare. The policy reads this as a
 * feature of every token of such a record, so "the cheapest one's flight number" does not have to
 * be found by comparing fares across records through attention alone. Text that is not JSON (a
 * result in prose, XML or a table under a shift) has no records.
 */
final class Records {
    /**
     * The record at {@code [start, end)} of its text holds the smallest ({@code min}) or largest value of {@code key}:
     * among its list's records, or ({@code across}) among the records of every list compared with it.
     */
    record Extreme(String key, boolean min, boolean across) {}

    /**
     * One record of a list ({@code list}: the list's number in its text; {@code size}: its records), where its text
     * is, its comparable fields, and the extremes it holds among its list's records (empty when none).
     */
    record Span(int start, int end, int list, int size, Map<String, Double> fields, List<Extreme> extremes) {}

    private Records() {}

    /** A text's records: in every list, and in lists of two or more only. */
    private record Parsed(List<Span> all, List<Span> listed) {
        static final Parsed NONE = new Parsed(List.of(), List.of());
    }

    /** Parsed observations; an episode re-reads the same few texts at every step, so this stays small. */
    private static final Map<String, Parsed> CACHE = new ConcurrentHashMap<>();

    /** The records in lists of two or more of a JSON text, innermost last; empty for any other text. */
    static List<Span> of(String text) {
        return parsed(text).listed();
    }

    /** The records of every list of a JSON text, a list of one record included; empty for any other text. */
    static List<Span> all(String text) {
        return parsed(text).all();
    }

    private static Parsed parsed(String text) {
        if (text == null || text.isEmpty()) return Parsed.NONE;
        char first = text.stripLeading().isEmpty() ? ' ' : text.stripLeading().charAt(0);
        if (first != '{' && first != '[') return Parsed.NONE;
        if (CACHE.size() > 5_000) CACHE.clear();
        return CACHE.computeIfAbsent(text, Records::parse);
    }

    /** The innermost record holding character {@code at}, or null. */
    static Span at(List<Span> spans, int at) {
        Span best = null;
        for (Span s : spans) {
            if (s.start() <= at && at < s.end() && (best == null || s.end() - s.start() < best.end() - best.start())) best = s;
        }
        return best;
    }

    private static Parsed parse(String text) {
        List<Span> out = new ArrayList<>();
        try (JsonParser p = Json.MAPPER.getFactory().createParser(text)) {
            JsonToken t = p.nextToken();
            if (t == JsonToken.START_OBJECT) object(p, out, null);
            else if (t == JsonToken.START_ARRAY) array(p, out);
        } catch (IOException | RuntimeException e) {
            return Parsed.NONE; // not JSON after all (a prose reply starting with a brace): no records
        }
        // Lists of two or more are numbered among themselves, as before lists of one were kept.
        List<Span> listed = new ArrayList<>();
        Map<Integer, Integer> renumbered = new HashMap<>();
        for (Span s : out) {
            if (s.size() < 2) continue;
            int list = renumbered.computeIfAbsent(s.list(), k -> renumbered.size());
            listed.add(new Span(s.start(), s.end(), list, s.size(), s.fields(), s.extremes()));
        }
        return new Parsed(List.copyOf(out), List.copyOf(listed));
    }

    /** One object's fields (comparable scalars only), after its START_OBJECT; nested lists add their own spans. */
    private static Map<String, Double> object(JsonParser p, List<Span> out, int[] end) throws IOException {
        Map<String, Double> fields = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            JsonToken v = p.nextToken();
            switch (v) {
                case START_OBJECT -> object(p, out, null);
                case START_ARRAY -> array(p, out);
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> fields.put(key, p.getDoubleValue());
                case VALUE_STRING -> {
                    double c = comparable(p.getText());
                    if (!Double.isNaN(c)) fields.put(key, c);
                }
                default -> { }
            }
        }
        if (end != null) end[0] = (int) p.currentLocation().getCharOffset();
        return fields;
    }

    /** A list, after its START_ARRAY: its objects become spans with the extremes each holds. */
    private static void array(JsonParser p, List<Span> out) throws IOException {
        List<int[]> ranges = new ArrayList<>();
        List<Map<String, Double>> records = new ArrayList<>();
        JsonToken t;
        while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
            if (t == JsonToken.START_OBJECT) {
                int start = (int) p.currentTokenLocation().getCharOffset();
                int[] end = new int[1];
                records.add(object(p, out, end));
                ranges.add(new int[]{start, end[0]});
            } else if (t == JsonToken.START_ARRAY) {
                array(p, out);
            }
        }
        int list = lists(out);
        Map<String, double[]> range = new LinkedHashMap<>();
        for (Map<String, Double> r : records) {
            r.forEach((k, v) -> {
                double[] mm = range.computeIfAbsent(k, x -> new double[]{Double.MAX_VALUE, -Double.MAX_VALUE, 0});
                mm[0] = Math.min(mm[0], v);
                mm[1] = Math.max(mm[1], v);
                mm[2]++;
            });
        }
        for (int i = 0; i < records.size(); i++) {
            List<Extreme> extremes = new ArrayList<>();
            for (var e : records.get(i).entrySet()) {
                double[] mm = range.get(e.getKey());
                if (mm[2] < 2 || mm[0] >= mm[1]) continue;
                if (e.getValue() == mm[0]) extremes.add(new Extreme(e.getKey(), true, false));
                if (e.getValue() == mm[1]) extremes.add(new Extreme(e.getKey(), false, false));
            }
            out.add(new Span(ranges.get(i)[0], ranges.get(i)[1], list, records.size(), Map.copyOf(records.get(i)), List.copyOf(extremes)));
        }
    }

    /** The next list's number: one more than the last list's among the spans so far. */
    private static int lists(List<Span> out) {
        int max = -1;
        for (Span s : out) max = Math.max(max, s.list());
        return max + 1;
    }

    /** A value that orders: a number, a time of day (minutes), a date (days); NaN for anything else. */
    static double comparable(String s) {
        double n = Tokenizer.number(s);
        if (!Double.isNaN(n)) return n;
        if (s.length() == 5 && s.charAt(2) == ':' && Character.isDigit(s.charAt(0)) && Character.isDigit(s.charAt(1))
                && Character.isDigit(s.charAt(3)) && Character.isDigit(s.charAt(4))) {
            return Integer.parseInt(s.substring(0, 2)) * 60 + Integer.parseInt(s.substring(3));
        }
        if (s.length() == 10 && s.charAt(4) == '-' && s.charAt(7) == '-') {
            try {
                return LocalDate.parse(s).toEpochDay();
            } catch (DateTimeParseException e) {
                return Double.NaN;
            }
        }
        return Double.NaN;
    }
}
