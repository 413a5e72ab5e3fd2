package dev.openagent.envs.kit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.domain.Tool;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A task under construction, shared by the function-call task generators. Read-only plan steps
 * are run on the episode's world as they are added ({@link #look}), so the gold plan is built from
 * exactly what the agent will see; writing steps are only recorded ({@link #commit}). References
 * into earlier results are resolved at once, so a generator bug fails at generation, not in the oracle.
 *
 * @param <W> the domain's world
 */
public final class TaskDraft<W> {
    private final W world;
    private final List<Tool<W>> tools;
    private final List<GoldPlan.Call> calls = new ArrayList<>();
    private final List<JsonNode> results = new ArrayList<>();

    public String query;
    public String answer;
    public final List<String> must = new ArrayList<>();
    public final List<String> mustNot = new ArrayList<>();
    public final Map<String, String> expect = new LinkedHashMap<>();
    public final List<Detail> details = new ArrayList<>();
    public boolean writes;

    public TaskDraft(W world, List<Tool<W>> tools) {
        this.world = world;
        this.tools = tools;
    }

    /** Runs a read-only tool on the world without adding it to the plan (probing while choosing a task). */
    public JsonNode probe(String tool, ObjectNode args) {
        for (Tool<W> t : tools) if (t.name().equals(tool)) return t.behaviour().call(world, t.params().validate(args));
        throw new IllegalStateException("no tool " + tool);
    }

    /** Adds a read-only call to the plan and returns its result (as the agent will see it). */
    public JsonNode look(String tool, ObjectNode args) {
        return look(tool, args, Map.of());
    }

    /** Adds a read-only call whose arguments depend on earlier results; returns its result. */
    public JsonNode look(String tool, ObjectNode args, Map<String, Ref> refs) {
        GoldPlan.Call call = new GoldPlan.Call(tool, args, refs);
        JsonNode result = probe(tool, call.resolve(results));
        calls.add(call);
        results.add(result);
        return result;
    }

    /**
     * Adds a read-only call without running it, for a generator that computes what it returns from the
     * functions the tool itself uses (cheaper than running it on every reset). Returns its index.
     */
    public int add(String tool, ObjectNode args) { return add(tool, args, Map.of()); }

    /** As {@link #add(String, ObjectNode)}, with arguments filled in from earlier results. */
    public int add(String tool, ObjectNode args, Map<String, Ref> refs) {
        GoldPlan.Call call = new GoldPlan.Call(tool, args, refs);
        checkRefs(call);
        calls.add(call);
        results.add(null);
        return calls.size() - 1;
    }

    /** Adds a writing call: recorded, not run (the agent must make the change). Returns its index. */
    public int commit(String tool, ObjectNode args, Map<String, Ref> refs) {
        int i = add(tool, args, refs);
        writes = true;
        return i;
    }

    /** Fails now if a reference is wrong: it must point at an earlier call, and into its result where that result is known. */
    private void checkRefs(GoldPlan.Call call) {
        boolean known = true;
        for (Ref r : call.refs().values()) {
            if (r.call() >= calls.size()) throw new IllegalStateException(call.tool() + " refers to call " + r.call() + ", which comes later");
            known &= results.get(r.call()) != null;
        }
        if (known) call.resolve(results);
    }

    /**
     * Adds a step that was run elsewhere, with its result: for example a text command rehearsed on a copy
     * of the world. Returns its index.
     */
    public int record(GoldPlan.Call call, JsonNode result) {
        calls.add(call);
        results.add(result);
        return calls.size() - 1;
    }

    /** Index of the last call added. */
    public int last() { return calls.size() - 1; }

    /** A reference into the result of call {@code call}. */
    public static Ref ref(int call, String pointer) { return new Ref(call, pointer); }

    /** A reference into the result of the last call added. */
    public Ref ref(String pointer) { return new Ref(last(), pointer); }

    public Task build(String env, TaskRequest request, String kind, int difficulty) {
        if (query == null || answer == null) throw new IllegalStateException(kind + ": query or answer not set");
        for (Detail d : details) {
            if (!query.contains(d.span())) throw new IllegalStateException(kind + ": detail span '" + d.span() + "' not in query: " + query);
        }
        String id = env + "/" + request.split().id() + "/" + request.seed() + "/" + difficulty;
        return new Task(id, env, request.split(), request.seed(), kind, difficulty, query, GoldPlan.answer(calls, answer),
                true, must, mustNot, expect, details, Map.of(), writes);
    }

    /** Adds a detail of the query that a query shift may remove. */
    public void detail(String key, String span, String keywords, String reply, boolean ambiguousWithout) {
        details.add(new Detail(key, span, keywords, reply, ambiguousWithout));
    }

    // ---------------------------------------------------------------- small helpers

    /** Builds an argument object from name/value pairs (String, Integer, Double, Boolean). */
    public static ObjectNode args(Object... nameValues) {
        if (nameValues.length % 2 != 0) throw new IllegalArgumentException("args need name/value pairs");
        List<Object> given = new ArrayList<>(nameValues.length);
        for (int i = 0; i < nameValues.length; i += 2) {
            if (nameValues[i + 1] == null) continue;   // an argument left out, not a JSON null
            given.add(nameValues[i]);
            given.add(nameValues[i + 1]);
        }
        return Json.object(given.toArray());
    }

    /** Index of the element of a JSON array whose field equals the value, or -1. */
    public static int indexWhere(JsonNode array, String field, String value) {
        for (int i = 0; i < array.size(); i++) if (array.get(i).path(field).asText().equals(value)) return i;
        return -1;
    }

    /** As {@link #indexWhere}, failing when absent: the generator expected the tool to list it. */
    public static int require(JsonNode array, String field, String value) {
        int k = indexWhere(array, field, value);
        if (k < 0) throw new IllegalStateException("expected " + field + "=" + value + " in " + array);
        return k;
    }
}
