package dev.openagent.oracle;

import dev.openagent.json.Json;

import java.util.regex.Pattern;

/** How the view solver reads what an answer says: its patterns, and whether it is an error, a "try again" or broken. */
final class Answers {
    private Answers() {}

    /** How a JSON document starts (not "[FILE] notes.txt"). */
    private static final Pattern JSON_START = Pattern.compile("\\{|\\[\\s*[\\[{\"\\d\\-\\]]|\\[\\s*(true|false|null)\\b");
    static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+):(/[^}]*)}");
    static final Pattern REPLACEMENT = Pattern.compile("(?i)\\buse '([^'\\s]+)'");
    static final Pattern WITHDRAWN = Pattern.compile("'([^'\\s]+)'[^'\\n]*?\\buse '([^'\\s]+)'");
    /** A source's name where a result lists several (JSON, XML, YAML, key=value and prose renderings). */
    static final Pattern SOURCE = Pattern.compile("(?i)\\bsource\\b[\"']?\\s*(?:[:=>]|is)\\s*[\"']?([A-Za-z_][\\w-]*)");
    /** "the 'registry' source is authoritative" in the instructions. */
    static final Pattern AUTHORITY = Pattern.compile("(?i)'([A-Za-z_][\\w-]*)' source is authoritative");
    /** "Write 'wait 30', then ...": a command an answer says to write first. */
    static final Pattern WRITE_FIRST = Pattern.compile("(?i)\\bwrite '([^'\\n]+)',? then\\b");
    static final Pattern CALL = Pattern.compile("(?i)\\bcall '?([A-Za-z_][\\w-]*)'?");
    /** "Call search_places again with the same arguments as before ({...})": an earlier call to redo, named with its arguments. */
    static final Pattern REDO = Pattern.compile("(?i)\\bcall '?([A-Za-z_][\\w-]*)'? again with the same arguments as before \\((?=\\{)");
    /** An answer saying the call runs on as a job: its result comes later, from the tool that takes the job's id. */
    static final Pattern RUNNING_JOB = Pattern.compile("(?i)job.{0,80}\\b(running|pending|queued|in progress)\\b|\\b(running|pending|queued|in progress)\\b.{0,80}\\bjob");
    /** What a transient failure says; a bare 503 or 429 is a street number or a price as often as a status. */
    static final Pattern TRANSIENT = Pattern.compile("(?i)try (the same \\w+ )?again|\\bretry|temporar|timed? ?out|\\b503 service|\\b429 too many|(?:http|status|error)\\W{0,3}(?:503|429)\\b|rate limit|busy|overloaded|\\bask me again\\b");

    /** Whether a text says "try again" (a transient failure). */
    static boolean transientFailure(String text) {
        return TRANSIENT.matcher(text).find();
    }

    /** Whether a text names a tool: the name as a whole identifier (not {@code get_hotel} inside {@code get_hotel_rates}). */
    static boolean mentions(String text, String name) {
        return Pattern.compile("(?<![\\w-])" + Pattern.quote(name) + "(?![\\w-])").matcher(text).find();
    }

    /** Whether an answer (of a tool the world does not have) is a result: neither an error nor a "try again". */
    static boolean answered(String text) {
        return !looksLikeError(text) && !transientFailure(text);
    }

    static boolean looksLikeError(String text) {
        String t = text.strip();
        return t.startsWith("Error [") || t.matches("(?s).*\"success\"\\s*:\\s*false.*") || t.startsWith("Sorry, I couldn't")
                || t.startsWith("There is no ") || t.startsWith("I don't understand");
    }

    /** Whether an answer (as sent) reads as a JSON document that is broken: cut short, single-quoted, keys unquoted. */
    static boolean broken(String text) {
        String t = text.strip();
        if (!JSON_START.matcher(t).lookingAt()) return false;
        try {
            Json.MAPPER.readTree(t);
            return false;
        } catch (Exception e) {
            return true;
        }
    }

    static String clip(String s, int max) {
        String t = s.replace('\n', ' ');
        return t.length() <= max ? t : t.substring(0, max - 3) + "...";
    }
}
