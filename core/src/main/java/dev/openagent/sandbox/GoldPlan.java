package dev.openagent.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference solution of a task: a chain of tool calls with their data dependencies and the
 * final answer. An argument whose value is only known at run time (an id or code a previous call
 * returns) is a {@link Ref} to that call's result; the answer is a template whose
 * {@code {i:/json/pointer}} placeholders read earlier results.
 */
public record GoldPlan(List<Call> calls, String answerTemplate, boolean refuse) {

    /** The pseudo-tool of a text command in the plans of text-command environments; its {@code text} argument is the command. */
    public static final String COMMAND = "command";

    /** A reference to part of the result of an earlier call of the plan. */
    public record Ref(int call, String pointer) {
        public Ref {
            if (call < 0) throw new IllegalArgumentException("negative call index");
            if (!pointer.isEmpty() && !pointer.startsWith("/")) throw new IllegalArgumentException("JSON pointer must start with /");
        }
    }

    /**
     * One call: the base tool, the arguments known when the task is generated, and the arguments
     * filled in from earlier results: whole values ({@code refs}: parameter name -> reference), and texts with
     * {@code {i:/json/pointer}} placeholders, as the answer template has them ({@code templates}: parameter name ->
     * text), for tools that take a value inside a text (an SQL statement, a command line).
     */
    public record Call(String tool, ObjectNode args, Map<String, Ref> refs,
                       @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                       Map<String, String> templates) {
        public Call {
            args = args.deepCopy();
            refs = SortedMaps.copyOf(refs);
            templates = SortedMaps.copyOf(templates);
        }

        public Call(String tool, ObjectNode args, Map<String, Ref> refs) { this(tool, args, refs, Map.of()); }

        public Call(String tool, ObjectNode args) { this(tool, args, Map.of()); }

        /** A plan step that sends one text command. */
        public static Call command(String text) {
            ObjectNode args = dev.openagent.json.Json.object();
            args.put("text", text);
            return new Call(COMMAND, args);
        }

        public boolean isCommand() { return tool.equals(COMMAND); }

        @Override
        public ObjectNode args() { return args.deepCopy(); }

        /** The earlier calls this one depends on. */
        public List<Integer> dependsOn() {
            java.util.stream.Stream<Integer> inTexts = templates.values().stream().flatMap(t -> placeholders(t).stream().map(Ref::call));
            return java.util.stream.Stream.concat(refs.values().stream().map(Ref::call), inTexts).distinct().sorted().toList();
        }

        /** The concrete arguments, reading references from the results so far. */
        public ObjectNode resolve(List<JsonNode> results) {
            ObjectNode out = args.deepCopy();
            refs.forEach((param, ref) -> out.set(param, GoldPlan.read(results, ref)));
            templates.forEach((param, text) -> out.put(param, render(text, results)));
            return out;
        }

        /** The same call in a plan with {@code k} calls put before it: its references point {@code k} calls further. */
        public Call after(int k) {
            Map<String, Ref> moved = new java.util.TreeMap<>();
            refs.forEach((p, r) -> moved.put(p, new Ref(r.call() + k, r.pointer())));
            Map<String, String> texts = new java.util.TreeMap<>();
            templates.forEach((p, t) -> texts.put(p, movePlaceholders(t, k)));
            return new Call(tool, args, moved, texts);
        }
    }

    /** The references of a text's {@code {i:/json/pointer}} placeholders, in order. */
    public static List<Ref> placeholders(String text) {
        List<Ref> out = new java.util.ArrayList<>();
        Matcher m = PLACEHOLDER.matcher(text);
        while (m.find()) out.add(new Ref(Integer.parseInt(m.group(1)), m.group(2)));
        return out;
    }

    /** A text's placeholders pointing {@code k} calls further (the plan got {@code k} calls before them). */
    public static String movePlaceholders(String text, int k) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder sb = new StringBuilder();
        while (m.find()) m.appendReplacement(sb, Matcher.quoteReplacement("{" + (Integer.parseInt(m.group(1)) + k) + ":" + m.group(2) + "}"));
        m.appendTail(sb);
        return sb.toString();
    }

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\d+):(/[^}]*)}");

    public GoldPlan {
        calls = List.copyOf(calls);
        answerTemplate = answerTemplate == null ? "" : answerTemplate;
    }

    public static GoldPlan answer(List<Call> calls, String answerTemplate) {
        return new GoldPlan(calls, answerTemplate, false);
    }

    /** Number of dependent hops: the longest chain of calls linked by data dependencies. */
    public int hops() {
        int[] depth = new int[calls.size()];
        int max = 0;
        for (int i = 0; i < calls.size(); i++) {
            int d = 1;
            for (int dep : calls.get(i).dependsOn()) d = Math.max(d, depth[dep] + 1);
            depth[i] = d;
            max = Math.max(max, d);
        }
        return max;
    }

    /** Fills the answer template from the results of the calls. */
    public String renderAnswer(List<JsonNode> results) {
        return render(answerTemplate, results);
    }

    private static String render(String template, List<JsonNode> results) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            JsonNode v = read(results, new Ref(Integer.parseInt(m.group(1)), m.group(2)));
            m.appendReplacement(sb, Matcher.quoteReplacement(v.isTextual() ? v.asText() : v.toString()));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    static JsonNode read(List<JsonNode> results, Ref ref) {
        if (ref.call() >= results.size() || results.get(ref.call()) == null) {
            throw new IllegalStateException("plan reference to call " + ref.call() + " before it has a result");
        }
        JsonNode v = results.get(ref.call()).at(ref.pointer());
        if (v.isMissingNode()) {
            String result = results.get(ref.call()).toString();
            throw new IllegalStateException("the result of call " + ref.call() + " has nothing at " + ref.pointer() + ": "
                    + (result.length() > 200 ? result.substring(0, 197) + "..." : result));
        }
        return v;
    }
}
