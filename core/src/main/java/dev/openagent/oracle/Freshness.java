package dev.openagent.oracle;

import dev.openagent.sandbox.ToolSpec;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading how fresh an answer is, from what the agent is shown: the instructions' freshness rule ("as_of before
 * 2026-11-20T09:52:00Z is stale"), an answer's {@code as_of} stamp in whatever rendering and case style it arrives,
 * and the parameter a tool documents for reading live data.
 */
final class Freshness {
    private static final Pattern RULE = Pattern.compile("(?i)\\bas[_ ]?of\\b[^\\n]{0,40}?\\bbefore (\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2})?Z)[^\\n]{0,40}?\\bis stale");
    private static final Pattern STAMP = Pattern.compile("(?i)\\bas[_ ]?of\\b\\W{0,4}(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2})?Z)");
    private static final Pattern LIVE = Pattern.compile("(?i)\\blive data\\b|\\binstead of the cache\\b");

    private Freshness() {}

    /** The time before which data is stale, as the instructions state it; empty where they state none. */
    static Optional<Instant> cutoff(String instructions) {
        Matcher m = RULE.matcher(instructions);
        return m.find() ? instant(m.group(1)) : Optional.empty();
    }

    /** Whether an answer says its data was read before the cutoff: a label {@code as_of} (any case style) or "as of" in prose. */
    static boolean stale(String answer, Instant cutoff, Names names) {
        for (Labels.Label l : Labels.of(answer)) {
            if (names.same(l.key(), "as_of") && instant(l.value().strip()).filter(t -> t.isBefore(cutoff)).isPresent()) return true;
        }
        Matcher m = STAMP.matcher(answer);
        while (m.find()) if (instant(m.group(1)).filter(t -> t.isBefore(cutoff)).isPresent()) return true;
        return false;
    }

    /** The parameter of a tool that reads live data, by its description (by its name where it has none); null when none. */
    static String liveParam(ToolSpec tool) {
        for (Map.Entry<String, String> p : Descriptions.descriptions(tool.parameters()).entrySet()) {
            boolean says = p.getValue().isBlank() ? Names.words(p.getKey()).contains("fresh") : LIVE.matcher(p.getValue()).find();
            if (says) return p.getKey();
        }
        return null;
    }

    private static Optional<Instant> instant(String s) {
        try {
            return Optional.of(Instant.parse(s));
        } catch (DateTimeParseException notAnInstant) {
            return Optional.empty();
        }
    }
}
