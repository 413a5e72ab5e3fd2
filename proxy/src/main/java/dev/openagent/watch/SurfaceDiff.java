package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.shift.Sign;
import org.apache.commons.text.similarity.LevenshteinDistance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The exact differences between two surfaces, each named by its {@link Sign}: tools gone, new, renamed (paired with
 * the tool they were by description and parameters, the rename told by how the name changed), names traded, and per
 * tool that kept its name its description, parameters and output schema; then resources and prompts.
 */
public final class SurfaceDiff {
    /** How many new tools at once make a crowd rather than a new tool or two. */
    static final int CROWD = 50;

    /** Wording that retires a tool. */
    private static final Pattern RETIRED = Pattern.compile("(?i)\\b(deprecated|retired|no longer (supported|available|answers)|will be removed|"
            + "replaced by|superseded|use '?[\\w.-]+'? instead|use [\\w.-]+\\.)");
    /** Wording that instructs the agent rather than describes the tool (tool poisoning). */
    private static final Pattern INSTRUCTS = Pattern.compile("(?i)(ignore (all |any )?(previous|prior|earlier) instructions|\\[system|<important>|"
            + "overrides? (earlier|previous|prior) instructions|do not (mention|tell|reveal)|from now on,|to the ai assistant)");
    /** Parameters that page a list. */
    private static final Pattern PAGING = Pattern.compile("(?i)(page|cursor|offset|next)(_?(token|number|num|index))?|page_?size|limit");
    /** A flag that reads live data instead of a cache. */
    private static final Pattern FRESHNESS = Pattern.compile("(?i)fresh|live|no_?cache|bypass_?cache|skip_?cache|max_?age|refresh");
    /** Parameters that set how long a call may take, or run it as a job instead. */
    private static final Pattern TIMEOUT = Pattern.compile("(?i)(request_?)?time_?out(_?(seconds|secs|s|ms|millis))?|(run_?)?async|background|as_?job");
    /** A tool that returns a job's result (or its status) by the job's id. */
    private static final Pattern JOB = Pattern.compile("(?i)(get_?|poll_?|fetch_?)?job_?(result|status|output)s?_*|poll(_?job)?_*");
    /** A tool that lets time pass ({@code wait}, {@code sleep}, {@code backoff}), by its name or its description's first word. */
    private static final Pattern WAIT = Pattern.compile("(?i)(wait|sleep|back_?off)(_(for|seconds|ms))?_*");
    /** A tool that renews access. */
    private static final Pattern RENEWAL = Pattern.compile("(?i)(renew|refresh|re-?auth|re-?login|log ?in\\b|sign ?in\\b)");
    /** A version suffix: a new tool named {@code NAME_v2} beside {@code NAME}. */
    private static final Pattern VERSION = Pattern.compile("(?i)[_-]?v?\\d+x*");

    private SurfaceDiff() {}

    /** Every change from {@code before} to {@code after}, tools in {@code before}'s order, then the new ones, then resources and prompts. */
    public static List<Change> between(Snapshot before, Snapshot after) {
        Map<String, Snapshot.Tool> was = byName(before.tools()), is = byName(after.tools());
        List<Change> out = new ArrayList<>();
        List<Snapshot.Tool> removed = before.tools().stream().filter(t -> !is.containsKey(t.name())).toList();
        List<Snapshot.Tool> added = after.tools().stream().filter(t -> !was.containsKey(t.name())).toList();

        // Renames: a tool gone and a new one that does what it did (by description and parameters), best pairs first.
        Map<String, Snapshot.Tool> renamedTo = new LinkedHashMap<>();
        Set<String> taken = new HashSet<>();
        record Pair(Snapshot.Tool from, Snapshot.Tool to, double score) {}
        List<Pair> pairs = new ArrayList<>();
        for (Snapshot.Tool r : removed) {
            for (Snapshot.Tool a : added) {
                double score = sameWork(r, a);
                if (score >= 0.5) pairs.add(new Pair(r, a, score));
            }
        }
        pairs.sort((x, y) -> Double.compare(y.score(), x.score()));
        for (Pair p : pairs) {
            if (renamedTo.containsKey(p.from().name()) || taken.contains(p.to().name())) continue;
            renamedTo.put(p.from().name(), p.to());
            taken.add(p.to().name());
        }

        for (Snapshot.Tool b : before.tools()) {
            Snapshot.Tool a = is.get(b.name());
            if (a == null) {
                Snapshot.Tool to = renamedTo.get(b.name());
                if (to == null) out.add(Change.of(Sign.TOOL_REMOVED, b.name(), "the tool is gone", summary(b), null));
                else out.add(Change.of(renameSign(b.name(), to.name()), b.name(), "renamed to " + to.name() + paramsNote(b, to), summary(b), summary(to)));
                continue;
            }
            out.addAll(sameName(b, a, before, after));
        }
        List<Change> fresh = new ArrayList<>();
        for (Snapshot.Tool a : added) {
            if (taken.contains(a.name())) continue;
            fresh.add(newTool(a, after.tools().stream().filter(t -> !t.name().equals(a.name()) && !taken.contains(t.name()) && was.containsKey(t.name())).toList()));
        }
        // Many new tools at once (a crowd of other services' tools) are a crowd, not a new tool or two.
        long plain = fresh.stream().filter(c -> c.sign() == Sign.TOOL_ADDED).count();
        for (Change c : fresh) {
            out.add(plain >= CROWD && c.sign() == Sign.TOOL_ADDED
                    ? Change.of(Sign.TOOLS_CROWDED, c.tool(), "one of " + plain + " new tools", c.before(), c.after()) : c);
        }
        out.addAll(items("resource", "uri", before.resources(), after.resources()));
        out.addAll(items("resource-template", "uriTemplate", before.templates(), after.templates()));
        out.addAll(items("prompt", "name", before.prompts(), after.prompts()));
        return out;
    }

    /** A description with every tool name of either list blanked: a description that differs only in the names it mentions follows a rename. */
    private static String withoutNames(String text, Snapshot before, Snapshot after) {
        String out = text;
        for (Snapshot s : List.of(before, after)) {
            for (Snapshot.Tool t : s.tools()) out = out.replaceAll("(?<![\\w-])" + Pattern.quote(t.name()) + "(?![\\w-])", "\u0000");
        }
        return out;
    }

    /** A tool that kept its name: traded with another, or its description, parameters or output schema changed. */
    private static List<Change> sameName(Snapshot.Tool b, Snapshot.Tool a, Snapshot before, Snapshot after) {
        List<Change> out = new ArrayList<>();
        if (!a.description().equals(b.description()) && !a.description().isBlank()) {
            // The name now stands for another tool's work: its description (and schema) came with the work.
            for (Snapshot.Tool u : before.tools()) {
                if (!u.name().equals(b.name()) && u.description().equals(a.description())) {
                    out.add(Change.of(Sign.TOOL_NAMES_TRADED, b.name(), "the name now stands for what " + u.name() + " did", summary(b), summary(a)));
                    return out;
                }
            }
        }
        if (!withoutNames(a.description(), before, after).equals(withoutNames(b.description(), before, after))) {
            String was = b.description(), is = a.description();
            // more retirement wording than before (a description may already say so of another version), or an instruction it lacked
            Sign sign = RETIRED.matcher(is).results().count() > RETIRED.matcher(was).results().count() ? Sign.DESCRIPTION_RETIRED
                    : INSTRUCTS.matcher(is).results().count() > INSTRUCTS.matcher(was).results().count() ? Sign.DESCRIPTION_INSTRUCTS
                    : is.isBlank() ? Sign.DESCRIPTION_REMOVED
                    : Sign.DESCRIPTION_REWORDED;
            String detail = switch (sign) {
                case DESCRIPTION_RETIRED -> "the description says it is retired";
                case DESCRIPTION_INSTRUCTS -> "the description now instructs the agent";
                case DESCRIPTION_REMOVED -> "the description was emptied";
                default -> "the description was reworded";
            };
            out.add(Change.of(sign, b.name(), detail, Json.NODES.textNode(was), Json.NODES.textNode(is)));
        }
        if (!sameSchema(b.inputSchema(), a.inputSchema())) {
            Map<String, JsonNode> p = b.parameters(), q = a.parameters();
            List<String> gained = q.keySet().stream().filter(k -> !p.containsKey(k)).toList();
            boolean kept = !gained.isEmpty() && p.keySet().stream().allMatch(q::containsKey) && p.entrySet().stream().allMatch(e -> e.getValue().equals(q.get(e.getKey())));
            // Only a paging, a freshness or a timeout parameter gained, the others as they were: the sign of that alone.
            Sign sign = kept && gained.stream().allMatch(k -> PAGING.matcher(k).matches()) ? Sign.PAGING_PARAMETER_ADDED
                    : kept && gained.stream().allMatch(k -> FRESHNESS.matcher(k).matches()) ? Sign.FRESHNESS_PARAMETER_ADDED
                    : kept && gained.stream().allMatch(k -> TIMEOUT.matcher(k).matches()) ? Sign.TIMEOUT_PARAMETER_ADDED
                    : Sign.PARAMETERS_CHANGED;
            out.add(Change.of(sign, b.name(), sign == Sign.PARAMETERS_CHANGED ? "parameters: " + paramsDetail(b, a) : "it takes " + String.join(", ", gained) + " now",
                    b.inputSchema(), a.inputSchema()));
        }
        if (!Objects.equals(b.outputSchema(), a.outputSchema())) {
            String detail = b.outputSchema() == null ? "it declares an output schema now" : a.outputSchema() == null ? "it no longer declares an output schema"
                    : "output schema: " + keysDetail(b.outputSchema(), a.outputSchema());
            out.add(Change.of(Sign.OUTPUT_SCHEMA_CHANGED, b.name(), detail, b.outputSchema(), a.outputSchema()));
        }
        return out;
    }

    /** A new tool no old one became: a version of one still there, a renewal, a near-duplicate, or new work. */
    private static Change newTool(Snapshot.Tool a, List<Snapshot.Tool> kept) {
        for (Snapshot.Tool e : kept) {
            if (a.name().length() > e.name().length() && a.name().startsWith(e.name()) && VERSION.matcher(a.name().substring(e.name().length())).matches()) {
                return Change.of(Sign.TOOL_VERSION_ADDED, a.name(), "a new version of " + e.name(), summary(e), summary(a));
            }
        }
        if (WAIT.matcher(a.name()).matches() || a.description().matches("(?is)^waits\\b.*")) {
            return Change.of(Sign.WAIT_TOOL_ADDED, a.name(), "a new tool that waits", null, summary(a));
        }
        if (JOB.matcher(a.name()).matches()) {
            return Change.of(Sign.JOB_TOOL_ADDED, a.name(), "a new tool that returns a job's result", null, summary(a));
        }
        if (RENEWAL.matcher(a.name()).find() || RENEWAL.matcher(a.description()).find() && a.parameters().isEmpty()) {
            return Change.of(Sign.RENEWAL_TOOL_ADDED, a.name(), "a new tool that renews access", null, summary(a));
        }
        for (Snapshot.Tool e : kept) {
            String an = a.name().toLowerCase(Locale.ROOT), en = e.name().toLowerCase(Locale.ROOT);
            boolean nameLike = an.contains(en) || en.contains(an) && en.length() - an.length() <= 2;
            boolean describedLike = !e.description().isBlank() && a.description().contains(e.description());
            if (nameLike || describedLike || similarity(a.description(), e.description()) >= 0.6 && sameSchema(a.inputSchema(), e.inputSchema())) {
                return Change.of(Sign.TOOL_LOOKALIKE_ADDED, a.name(), "a near-duplicate of " + e.name(), summary(e), summary(a));
            }
        }
        return Change.of(Sign.TOOL_ADDED, a.name(), "a new tool", null, summary(a));
    }

    /** How a name changed: to an opaque id, by a few letters, or to other words. */
    static Sign renameSign(String from, String to) {
        List<String> fw = words(from), tw = words(to);
        boolean shared = tw.stream().anyMatch(fw::contains);
        boolean idLike = tw.stream().anyMatch(w -> w.matches(".*\\d.*") || w.length() >= 3 && !w.matches(".*[aeiouy].*"));
        if (!shared && idLike) return Sign.TOOL_RENAMED_OPAQUE;
        String f = from.toLowerCase(Locale.ROOT), t = to.toLowerCase(Locale.ROOT);
        if (f.replaceAll("[^a-z0-9]", "").equals(t.replaceAll("[^a-z0-9]", "")) || distance(f, t) <= 2) return Sign.TOOL_RENAMED_BY_LETTERS;
        // by letters when every new word is a misspelling of an old one; a word put in or replaced whole is a rename by words
        boolean misspelt = tw.stream().filter(w -> !fw.contains(w))
                .allMatch(w -> fw.stream().anyMatch(o -> distance(o, w) <= Math.max(1, Math.min(2, o.length() / 2))));
        boolean sameLength = Math.abs(fw.size() - tw.size()) <= 1;
        return misspelt && sameLength ? Sign.TOOL_RENAMED_BY_LETTERS : Sign.TOOL_RENAMED_BY_WORDS;
    }

    /** How alike two tools' work is, 0..1: their descriptions' words mostly, and their parameters' types. */
    private static double sameWork(Snapshot.Tool r, Snapshot.Tool a) {
        double described = r.description().isBlank() && a.description().isBlank() ? 0.5 : similarity(r.description(), a.description());
        double typed = types(r).equals(types(a)) ? 1 : 0;
        return 0.7 * described + 0.3 * typed;
    }

    private static List<String> types(Snapshot.Tool t) {
        return t.parameters().values().stream().map(v -> v.path("type").asText("?")).sorted().toList();
    }

    /** Word overlap (Jaccard) of two texts. */
    static double similarity(String x, String y) {
        Set<String> a = new HashSet<>(words(x)), b = new HashSet<>(words(y));
        if (a.isEmpty() && b.isEmpty()) return 1;
        Set<String> both = new HashSet<>(a);
        both.retainAll(b);
        Set<String> any = new HashSet<>(a);
        any.addAll(b);
        return (double) both.size() / any.size();
    }

    /** The words of a name or text: split at separators and camel case, lower case. */
    static List<String> words(String text) {
        return Arrays.stream(text.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT).split("[^a-z0-9]+")).filter(w -> !w.isEmpty()).toList();
    }

    static int distance(String a, String b) {
        return LevenshteinDistance.getDefaultInstance().apply(a, b);
    }

    /**
     * Two input schemas are the same when they are equal and list their properties in the same order; a missing
     * {@code required} is an empty one, and {@code $schema} (which draft) does not count.
     */
    private static boolean sameSchema(JsonNode a, JsonNode b) {
        return normal(a).equals(normal(b)) && iterable(a.path("properties")).equals(iterable(b.path("properties")));
    }

    private static JsonNode normal(JsonNode schema) {
        ObjectNode o = schema.isObject() ? (ObjectNode) schema.deepCopy() : Json.object();
        o.remove("$schema");
        // required is a set: its order means nothing
        java.util.TreeSet<String> required = new java.util.TreeSet<>();
        o.path("required").forEach(r -> required.add(r.asText()));
        o.putArray("required");
        required.forEach(((com.fasterxml.jackson.databind.node.ArrayNode) o.get("required"))::add);
        if (!o.has("properties")) o.putObject("properties");
        return o;
    }

    private static List<String> iterable(JsonNode properties) {
        List<String> out = new ArrayList<>();
        properties.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static String paramsNote(Snapshot.Tool b, Snapshot.Tool a) {
        return sameSchema(b.inputSchema(), a.inputSchema()) ? "" : "; parameters: " + paramsDetail(b, a);
    }

    /** What changed among a tool's parameters, in words. */
    private static String paramsDetail(Snapshot.Tool b, Snapshot.Tool a) {
        Map<String, JsonNode> p = b.parameters(), q = a.parameters();
        List<String> parts = new ArrayList<>();
        List<String> gone = p.keySet().stream().filter(k -> !q.containsKey(k)).toList();
        List<String> came = q.keySet().stream().filter(k -> !p.containsKey(k)).toList();
        if (!gone.isEmpty()) parts.add("gone " + String.join(", ", gone));
        if (!came.isEmpty()) parts.add("new " + String.join(", ", came));
        List<String> kept = p.keySet().stream().filter(q::containsKey).toList();
        List<String> keptAfter = q.keySet().stream().filter(p::containsKey).toList();
        if (!kept.equals(keptAfter)) parts.add("reordered");
        List<String> retyped = kept.stream().filter(k -> !p.get(k).path("type").equals(q.get(k).path("type"))).toList();
        if (!retyped.isEmpty()) parts.add("type changed " + String.join(", ", retyped));
        List<String> redescribed = kept.stream().filter(k -> !p.get(k).path("description").equals(q.get(k).path("description"))).toList();
        if (!redescribed.isEmpty()) parts.add("described anew " + String.join(", ", redescribed));
        JsonNode was = normal(b.inputSchema()), is = normal(a.inputSchema());
        if (!was.path("required").equals(is.path("required"))) parts.add("required " + was.path("required") + " -> " + is.path("required"));
        if (!kept.stream().filter(k -> !p.get(k).equals(q.get(k))).allMatch(k -> retyped.contains(k) || redescribed.contains(k))) {
            parts.add("constraints changed " + String.join(", ", kept.stream().filter(k -> !p.get(k).equals(q.get(k)) && !retyped.contains(k) && !redescribed.contains(k)).toList()));
        }
        Set<String> keywords = new java.util.TreeSet<>();
        was.fieldNames().forEachRemaining(keywords::add);
        is.fieldNames().forEachRemaining(keywords::add);
        for (String k : keywords) {
            if (k.equals("properties") || k.equals("required") || Objects.equals(was.get(k), is.get(k))) continue;
            parts.add(k + " " + (was.has(k) ? was.get(k) : "(absent)") + " -> " + (is.has(k) ? is.get(k) : "(absent)"));
        }
        if (parts.isEmpty()) parts.add("the schema changed otherwise");
        return String.join("; ", parts);
    }

    private static String keysDetail(JsonNode b, JsonNode a) {
        List<String> was = iterable(b.path("properties")), is = iterable(a.path("properties"));
        List<String> gone = was.stream().filter(k -> !is.contains(k)).toList(), came = is.stream().filter(k -> !was.contains(k)).toList();
        if (gone.isEmpty() && came.isEmpty()) return "the same keys, changed otherwise";
        return (gone.isEmpty() ? "" : "gone " + String.join(", ", gone) + (came.isEmpty() ? "" : "; ")) + (came.isEmpty() ? "" : "new " + String.join(", ", came));
    }

    private static ObjectNode summary(Snapshot.Tool t) {
        ObjectNode o = Json.object("name", t.name(), "description", t.description());
        o.set("inputSchema", t.inputSchema());
        return o;
    }

    /** Resources, templates or prompts that came, went or changed, by their key. */
    private static List<Change> items(String what, String key, List<JsonNode> before, List<JsonNode> after) {
        Map<String, JsonNode> was = new LinkedHashMap<>(), is = new LinkedHashMap<>();
        before.forEach(n -> was.put(n.path(key).asText(), n));
        after.forEach(n -> is.put(n.path(key).asText(), n));
        List<Change> out = new ArrayList<>();
        was.forEach((k, v) -> {
            JsonNode now = is.get(k);
            if (now == null) out.add(Change.outside(what + "-removed", k, "the " + what.replace('-', ' ') + " is gone", v, null));
            else if (!now.equals(v)) out.add(Change.outside(what + "-changed", k, "the " + what.replace('-', ' ') + " changed", v, now));
        });
        is.forEach((k, v) -> {
            if (!was.containsKey(k)) out.add(Change.outside(what + "-added", k, "a new " + what.replace('-', ' '), null, v));
        });
        return out;
    }

    private static Map<String, Snapshot.Tool> byName(List<Snapshot.Tool> tools) {
        Map<String, Snapshot.Tool> out = new LinkedHashMap<>();
        tools.forEach(t -> out.put(t.name(), t));
        return out;
    }
}
