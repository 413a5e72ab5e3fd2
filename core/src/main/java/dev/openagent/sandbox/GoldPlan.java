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
     * filled in from earlier results ({@code refs}: parameter name -> reference).
     */
    public record Call(String tool, ObjectNode args, Map<String, Ref> refs) {
        public Call {
            args = args.deepCopy();
            refs = SortedMaps.copyOf(refs);
        }

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
            return refs.values().stream().map(Ref::call).distinct().sorted().toList();
        }

        /** The concrete arguments, reading references from the results so far. */
        public ObjectNode resolve(List<JsonNode> results) {
            ObjectNode out = args.deepCopy();
            refs.forEach((param, ref) -> out.set(param, GoldPlan.read(results, ref)));
            return out;
        }
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
        Matcher m = PLACEHOLDER.matcher(answerTemplate);
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
            throw new IllegalStateException("plan reference " + ref + " not found in " + results.get(ref.call()));
        }
        return v;
    }
}
