package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The tasks of a task file: checked against the tools once, then made into {@link Task}s per episode with {@code {workdir}} filled in. */
final class FileTasks {
    static final String WORKDIR = "{workdir}";
    private static final Pattern REF = Pattern.compile("(\\d+)(?::(/.*))?");

    /** One task line: its tree (with {@code {workdir}} still in it), where it was written, and its split. */
    record Entry(String id, Split split, int difficulty, JsonNode tree, SourceFile source) {}

    private FileTasks() {}

    /** Reads and checks every task line; {@code tools} are the environment's tool names, {@code readOnly} those that change nothing. */
    static List<Entry> read(java.nio.file.Path file, Set<String> tools) {
        List<String> lines = SourceFile.text(file).lines().toList();
        List<Entry> out = new ArrayList<>();
        Set<String> ids = new java.util.HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String text = lines.get(i);
            if (text.isBlank()) continue;
            SourceFile.Parsed p = SourceFile.read(file, text, i + 1);
            TaskLine t = p.as(TaskLine.class);
            SourceFile src = p.source();
            if (t.id() == null || t.id().isBlank()) throw src.error("", "missing key 'id'");
            if (!ids.add(t.id())) throw src.error("/id", "task id '" + t.id() + "' is used twice");
            if (t.query() == null || t.query().isBlank()) throw src.error("", "missing key 'query'");
            Split split;
            try {
                split = t.split() == null ? Split.TEST : Split.parse(t.split());
            } catch (IllegalArgumentException e) {
                throw src.error("/split", e.getMessage());
            }
            checkCalls(src, "/gold", t.gold(), tools);
            boolean solvable = t.solvable() == null || t.solvable();
            if (t.check() != null) {
                for (int c = 0; c < t.check().state().size(); c++) {
                    TaskLine.StateCheck s = t.check().state().get(c);
                    String at = "/check/state/" + c;
                    checkTool(src, at + "/tool", s.tool(), tools);
                    if (s.args() != null && !s.args().isObject()) throw src.error(at + "/args", "arguments must be an object");
                    if (s.args() != null) noReadsInside(src, at + "/args", s.args(), "state checks run after the episode, on literal arguments");
                    if (s.resultContains() == null && s.resultNotContains() == null) {
                        throw src.error(at, "a state check needs result_contains or result_not_contains");
                    }
                }
            }
            if (t.answer() != null) {
                for (GoldPlan.Ref r : GoldPlan.placeholders(t.answer())) {
                    if (r.call() >= t.gold().size()) {
                        throw src.error("/answer", "{" + r.call() + ":" + r.pointer() + "} reads call " + r.call() + ", but the plan has "
                                + t.gold().size() + (t.gold().size() == 1 ? " call" : " calls") + " (numbered from 0)");
                    }
                }
            }
            if (solvable && expected(t).isEmpty() && (t.check() == null || t.check().state().isEmpty())) {
                throw src.error("", "nothing to check: give a literal 'answer', or check.answer_contains or check.state");
            }
            for (int d = 0; d < t.details().size(); d++) {
                TaskLine.DetailLine dl = t.details().get(d);
                if (dl.text() == null || !t.query().contains(dl.text())) {
                    throw src.error("/details/" + d + "/text", "a detail's text must be a span of the query");
                }
                if (dl.userReply() == null) throw src.error("/details/" + d, "missing key 'user_reply'");
            }
            if (t.impossible() != null) {
                if (t.impossible().query() == null || t.impossible().reason() == null) {
                    throw src.error("/impossible", "an impossible variant needs 'query' and 'reason'");
                }
                checkCalls(src, "/impossible/probes", t.impossible().probes(), tools);
            }
            int difficulty = t.difficulty() != null ? t.difficulty() : Math.max(1, Math.min(4, plan(t.gold(), "", false).hops()));
            if (difficulty < 1 || difficulty > 4) throw src.error("/difficulty", "difficulty must be 1 to 4");
            out.add(new Entry(t.id(), split, difficulty, p.tree(), src));
        }
        if (out.isEmpty()) throw new BadEnvironmentFile(file + ":1: the task file holds no task");
        return out;
    }

    private static void checkCalls(SourceFile src, String at, List<TaskLine.Call> calls, Set<String> tools) {
        for (int c = 0; c < calls.size(); c++) {
            TaskLine.Call call = calls.get(c);
            checkTool(src, at + "/" + c + "/tool", call.tool(), tools);
            if (call.args() == null) continue;
            if (!call.args().isObject()) throw src.error(at + "/" + c + "/args", "arguments must be an object");
            for (var f : call.args().properties()) {
                String key = at + "/" + c + "/args/" + f.getKey();
                JsonNode value = f.getValue();
                JsonNode ref = value.get("$ref");
                if (ref != null) {
                    if (value.size() != 1) throw src.error(key, "a $ref object holds only the key $ref");
                    Matcher m = REF.matcher(ref.asText());
                    if (!(ref.isTextual() || ref.isIntegralNumber()) || !m.matches()) throw src.error(key, "a $ref is \"N\" or \"N:/json/pointer\", not " + ref);
                    int n = Integer.parseInt(m.group(1));
                    if (n >= c) throw src.error(key, "$ref to call " + n + ", which is not before this call (" + c + ")");
                } else if (value.isTextual()) {
                    for (GoldPlan.Ref r : GoldPlan.placeholders(value.asText())) {
                        if (r.call() >= c) throw src.error(key, "{" + r.call() + ":" + r.pointer() + "} reads call " + r.call() + ", which is not before this call (" + c + ")");
                    }
                } else {
                    noReadsInside(src, key, value, "it would be sent as written: a $ref is a whole argument of its own, and {N:/pointer} goes in a text argument");
                }
            }
        }
    }

    /** A value (nested in an argument, or in a state check) must not read plan results: nothing would fill them in. */
    private static void noReadsInside(SourceFile src, String key, JsonNode value, String why) {
        if (value.isObject()) {
            if (value.has("$ref")) throw src.error(key, "a $ref here is not filled in: " + why);
            for (var f : value.properties()) noReadsInside(src, key + "/" + f.getKey(), f.getValue(), why);
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) noReadsInside(src, key + "/" + i, value.get(i), why);
        } else if (value.isTextual() && !GoldPlan.placeholders(value.asText()).isEmpty()) {
            throw src.error(key, "a {N:/pointer} here is not filled in: " + why);
        }
    }

    private static void checkTool(SourceFile src, String at, String tool, Set<String> tools) {
        if (tool == null) throw src.error(at.substring(0, at.lastIndexOf('/')), "missing key 'tool'");
        if (!tools.contains(tool)) {
            throw src.error(at, "unknown tool '" + tool + "' (tools: " + String.join(", ", new java.util.TreeSet<>(tools)) + ")");
        }
    }

    /** What the answer must contain: check.answer_contains, or the literal answer of a task checked on its answer alone. */
    private static List<String> expected(TaskLine t) {
        if (t.check() != null && !t.check().answerContains().isEmpty()) return t.check().answerContains();
        if (t.check() != null && !t.check().state().isEmpty()) return List.of(); // a writing task is checked on state
        if (t.answer() != null && !t.answer().isBlank() && !t.answer().matches("(?s).*\\{\\d+:/[^}]*}.*")) return List.of(t.answer());
        return List.of();
    }

    /** The line's tree with {@code {workdir}} replaced in every text. */
    static TaskLine line(Entry e, String workdir) {
        return read(substitute(e.tree(), workdir));
    }

    private static TaskLine read(JsonNode tree) {
        try {
            return SourceFile.JSON.treeToValue(tree, TaskLine.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("task line checked at load time: " + e.getMessage(), e);
        }
    }

    static JsonNode substitute(JsonNode node, String workdir) {
        return Json.rewrite(node, UnaryOperator.identity(), t -> t.replace(WORKDIR, workdir));
    }

    /** The task of a line (already substituted), for an episode. */
    static Task task(TaskLine t, String env, Split split, long seed, int difficulty, Set<String> readOnly) {
        boolean solvable = t.solvable() == null || t.solvable();
        List<Detail> details = new ArrayList<>();
        Map<String, String> user = new LinkedHashMap<>(t.user());
        for (int i = 0; i < t.details().size(); i++) {
            TaskLine.DetailLine d = t.details().get(i);
            String keywords = d.keywords() != null ? d.keywords() : keywords(d.text());
            details.add(new Detail("detail" + i, d.text(), keywords, d.userReply(), Boolean.TRUE.equals(d.ambiguous())));
            user.put(keywords, d.userReply());
        }
        boolean writes = t.gold().stream().anyMatch(c -> !readOnly.contains(c.tool()));
        GoldPlan plan = plan(t.gold(), solvable ? t.answer() : reason(t), !solvable);
        List<String> must = solvable ? expected(t) : List.of();
        List<String> mustNot = solvable && t.check() != null ? t.check().answerNotContains() : List.of();
        return new Task(t.id(), env, split, seed, t.kind() == null ? "task" : t.kind(), difficulty, t.query(), plan, solvable,
                must, mustNot, Map.of(), details, user, writes);
    }

    static String reason(TaskLine t) {
        return t.reason() != null ? t.reason() : "This cannot be done with the tools available.";
    }

    static GoldPlan plan(List<TaskLine.Call> calls, String answer, boolean refuse) {
        List<GoldPlan.Call> out = new ArrayList<>();
        for (TaskLine.Call c : calls) out.add(call(c));
        return new GoldPlan(out, answer == null ? "" : answer, refuse);
    }

    /** A plan call: {@code $ref} arguments become references, texts with {@code {N:/pointer}} templates (both checked at load). */
    static GoldPlan.Call call(TaskLine.Call c) {
        ObjectNode args = Json.object();
        Map<String, GoldPlan.Ref> refs = new LinkedHashMap<>();
        Map<String, String> templates = new LinkedHashMap<>();
        if (c.args() != null) {
            for (var f : c.args().properties()) {
                JsonNode ref = f.getValue().get("$ref");
                if (ref != null) {
                    Matcher m = REF.matcher(ref.asText());
                    if (!m.matches()) throw new IllegalStateException("checked at load time");
                    refs.put(f.getKey(), new GoldPlan.Ref(Integer.parseInt(m.group(1)), m.group(2) == null ? "" : m.group(2)));
                } else if (f.getValue().isTextual() && !GoldPlan.placeholders(f.getValue().asText()).isEmpty()) {
                    templates.put(f.getKey(), f.getValue().asText());
                } else {
                    args.set(f.getKey(), f.getValue());
                }
            }
        }
        return new GoldPlan.Call(c.tool(), args, refs, templates);
    }

    /** The words of a span a question about it would mention. */
    private static String keywords(String span) {
        List<String> words = new ArrayList<>();
        for (String w : span.split("[^\\p{L}\\p{N}._-]+")) if (w.length() > 2) words.add(w.toLowerCase(java.util.Locale.ROOT));
        return words.isEmpty() ? span : String.join("|", words);
    }
}
