package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * What the watch reads in one call's result: its format, its JSON keys and nesting, its largest list, and which
 * kinds of wording it holds (an error's kind, a page token, a retirement or withdrawal, an instruction).
 *
 * @param format    JSON, XML, YAML, KV (key=value lines), TABLE, PROSE or EMPTY
 * @param keys      the key paths of a JSON result ({@code entities[].name}), to depth 4; empty for other formats
 * @param largest   the longest list in a JSON result (0: none)
 * @param malformed it opens like JSON and does not parse
 * @param error     the call failed ({@code isError})
 * @param kind      what the text says, whether it failed or not
 */
public record Reading(Format format, Set<String> keys, int largest, boolean malformed, boolean error, Kind kind, boolean paged, boolean instructs) {
    public enum Format { JSON, XML, YAML, KV, TABLE, PROSE, EMPTY }

    /** What a result's wording says, beyond its data. */
    public enum Kind {
        /** nothing of the kinds below */
        PLAIN,
        /** a timeout, an overload, a rate limit, a reset connection: try again */
        TRANSIENT,
        /** a tool that goes down and comes back by turns ("flapping"): retrying works, and the next call may fail again */
        FLAPPING,
        /** a time-out that names a longer timeout to pass, or a job to run instead: retrying as before will not do */
        TIMEOUT,
        /** a call refused because an earlier result it depends on went stale, naming the earlier call to redo first */
        DEPENDENCY,
        /** a rate limit that says how long to wait first (a Retry-After, a quota used up): retrying at once will not do */
        QUOTA,
        /** the session or token expired, 401 */
        AUTH,
        /** the tool is retired, gone, deprecated; use another */
        RETIRED,
        /** tools were withdrawn (a notice beside a result) */
        WITHDRAWN,
        /** an error shaped as a success, or an apology in prose */
        FAILURE_AS_SUCCESS
    }

    private static final Pattern TRANSIENT = Pattern.compile("(?i)(\\b50[234]\\b|\\b429\\b|timed? ?out|temporarily|rate limit|too many requests|connection reset|please retry|try again)");
    private static final Pattern QUOTA = Pattern.compile("(?i)(\\bretry-after\\s*[:=]?\\s*\\d+|\\bquota\\b.{0,40}\\b(exceeded|exhausted|used up|reached)|rate limit.{0,40}\\bused up)");
    private static final Pattern FLAPPING = Pattern.compile("(?i)(\\bflapping\\b|goes down and comes back|down and up by turns|intermittently (down|unavailable))");
    private static final Pattern TIMEOUT = Pattern.compile("(?i)(\\blonger timeout\\b|\\btimeout_?s(econds)?\\s*[=:]\\s*\\d+|\\brun (it|the call) as a job\\b|\\basync\\s*[=:]\\s*true\\b)");
    private static final Pattern DEPENDENCY = Pattern.compile("(?i)(depends on an earlier (result|call)|\\bupstream\\b.{0,40}\\b(failed|stale|invalidated)|again with the same arguments.{0,60}\\bthen repeat this call)");
    private static final Pattern AUTH = Pattern.compile("(?i)(\\b401\\b|unauthori[sz]ed|session expired|token expired|expired token|re-?authenticate)");
    private static final Pattern RETIRED = Pattern.compile("(?i)(\\b410\\b|was retired|is retired|no longer answers|deprecated|has been removed|moved permanently)");
    private static final Pattern WITHDRAWN = Pattern.compile("(?i)('[^']+' (is|was|has been) withdrawn|the tool set changed)");
    private static final Pattern FAILED_WORDS = Pattern.compile("(?i)^\\W*(sorry|unfortunately|i couldn't|could not|failed|error\\b|unable)");
    /** A JSON body that reports a failure inside a success: {@code "success": false}, {@code "status": "error"}. */
    private static final Pattern SUCCESS_SHAPED = Pattern.compile("\"(success|ok)\"\\s*:\\s*false|\"status\"\\s*:\\s*\"(error|failed)\"|^Sorry, I couldn't");
    private static final Pattern PAGED = Pattern.compile("(?i)(next_page_token|page_token|next_cursor|nextcursor|\"has_more\"|has_more:|total_pages)");
    private static final Pattern INSTRUCTS = Pattern.compile("(?i)(ignore (all |any )?(previous|prior|earlier) instructions|\\[system|<important>|important_message|system_note|"
            + "overrides? (earlier|previous|prior) instructions|do not (mention|tell|reveal) (this|it)|from now on,|note left here by someone)");
    private static final Pattern XML = Pattern.compile("(?s)^\\s*<[A-Za-z_?!][^>]*>.*</?[A-Za-z_][^>]*>\\s*$");
    private static final Pattern YAML = Pattern.compile("(?m)^\\s*(-\\s+)?[A-Za-z_][\\w-]*:( .*)?$");
    private static final Pattern KV = Pattern.compile("(?m)^\\s*[A-Za-z_][\\w.\\[\\]-]*=.*$");
    private static final Pattern TABLE = Pattern.compile("(?m)^\\s*\\|.*\\|\\s*$");

    public static Reading of(String text, boolean error) {
        String t = text == null ? "" : text.strip();
        Format format;
        Set<String> keys = new TreeSet<>();
        int[] largest = {0};
        boolean malformed = false;
        if (t.isEmpty()) {
            format = Format.EMPTY;
        } else if (t.startsWith("{") || t.startsWith("[")) {
            JsonNode json = null;
            try {
                json = Json.MAPPER.readTree(t);
            } catch (java.io.IOException | RuntimeException e) {
                malformed = true;
            }
            format = Format.JSON;
            if (json != null) paths(json, "", 0, keys, largest);
        } else if (XML.matcher(t).matches()) {
            format = Format.XML;
        } else if (t.startsWith("=")) {
            format = Format.KV;         // a bare value as key=value text: "=" and the value
        } else if (t.length() >= 2 && t.startsWith("\"") && t.endsWith("\"")) {
            format = Format.YAML;       // a bare value as a YAML scalar
        } else if (t.length() >= 2 && t.startsWith("'") && t.endsWith("'")) {
            format = Format.JSON;       // JSON written with single quotes
            malformed = true;
        } else if (lines(TABLE, t) >= 2) {
            format = Format.TABLE;
        } else if (lines(KV, t) >= Math.max(1, t.lines().count() / 2)) {
            format = Format.KV;
        } else if (lines(YAML, t) >= Math.max(2, (t.lines().count() + 1) / 2)) {
            format = Format.YAML;
        } else {
            format = Format.PROSE;
        }
        Kind kind;
        if (AUTH.matcher(t).find()) kind = Kind.AUTH;
        else if (WITHDRAWN.matcher(t).find()) kind = Kind.WITHDRAWN;
        else if (error && RETIRED.matcher(t).find()) kind = Kind.RETIRED;
        else if (error && QUOTA.matcher(t).find()) kind = Kind.QUOTA;
        else if (error && FLAPPING.matcher(t).find()) kind = Kind.FLAPPING;
        else if (error && TIMEOUT.matcher(t).find()) kind = Kind.TIMEOUT;
        else if (error && DEPENDENCY.matcher(t).find()) kind = Kind.DEPENDENCY;
        else if (error && TRANSIENT.matcher(t).find()) kind = Kind.TRANSIENT;
        else if (SUCCESS_SHAPED.matcher(t).find() || !error && FAILED_WORDS.matcher(t).find()) kind = Kind.FAILURE_AS_SUCCESS;
        else kind = Kind.PLAIN;
        return new Reading(format, keys, largest[0], malformed, error, kind, PAGED.matcher(t).find(), INSTRUCTS.matcher(t).find());
    }

    private static long lines(Pattern p, String t) {
        return t.lines().filter(l -> p.matcher(l).matches()).count();
    }

    private static void paths(JsonNode n, String at, int depth, Set<String> out, int[] largest) {
        if (depth > 4) return;
        if (n.isArray()) {
            largest[0] = Math.max(largest[0], n.size());
            for (JsonNode item : n) paths(item, at + "[]", depth + 1, out, largest);
        } else if (n.isObject()) {
            n.properties().forEach(e -> {
                String key = at.isEmpty() ? e.getKey() : at + "." + e.getKey();
                out.add(key);
                paths(e.getValue(), key, depth + 1, out, largest);
            });
        }
    }
}
