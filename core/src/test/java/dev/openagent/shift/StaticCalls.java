package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The oracle's tool calls in a static episode, each with the result it got, to drive the same episode
 * under a shift call by call and compare what the agent is shown. The shifted environment wraps the same
 * world (same request), so a call with the static arguments reaches the same data.
 */
record StaticCalls(Start start, Task task, List<Call> calls) {
    /** One call of the oracle and its static result. */
    record Call(Action.ToolCall call, Observation result) {
        String tool() { return call.name(); }

        JsonNode payload() { return result.payload(); }
    }

    /** The oracle's static episode on a fresh environment (calls of {@code ask_user} left out). */
    static StaticCalls of(Environment environment, TaskRequest request) {
        Env env = environment.create();
        Start start = env.reset(request);
        AgentSession oracle = new OracleAgent().begin(start, env);
        List<Call> calls = new ArrayList<>();
        Step last = null;
        do {
            Action a = oracle.act(last);
            last = env.step(a);
            if (a instanceof Action.CallTools c) {
                for (Action.ToolCall call : c.calls()) {
                    if (Protocol.ASK_USER.equals(call.name())) continue;
                    Observation o = last.observations().stream().filter(x -> call.id().equals(x.callId())).findFirst().orElseThrow();
                    calls.add(new Call(call, o));
                }
            }
        } while (!last.done());
        return new StaticCalls(start, env.task(), calls);
    }

    /** The requests the shift tests drive, by index: both splits, every difficulty. */
    static TaskRequest request(int i) {
        return new TaskRequest(i % 2 == 0 ? dev.openagent.sandbox.Split.TEST : dev.openagent.sandbox.Split.TRAIN, 4100 + i, i % 5);
    }

    /** A static episode, and its request started on the shifted environment. */
    record Driven(TaskRequest request, StaticCalls statics, Start start) {}

    /**
     * The first {@code n} requests' static episodes, each with its request started on {@code shifted} when the
     * iteration reaches it (so a test drives the shifted episode before the next one starts).
     */
    static Iterable<Driven> under(Environment environment, Env shifted, int n) {
        return () -> java.util.stream.IntStream.range(0, n).mapToObj(i -> {
            TaskRequest r = request(i);
            StaticCalls s = of(environment, r);
            return new Driven(r, s, shifted.reset(r));
        }).iterator();
    }

    /** The distinct tools the task's gold plan calls, in plan order ({@code ask_user} left out). */
    List<String> plannedTools() {
        return task.plan().calls().stream().map(c -> c.tool()).filter(t -> !Protocol.ASK_USER.equals(t)).distinct().toList();
    }

    /** One tool call in the current episode of {@code env}; returns the whole step. */
    static Step step(Env env, String tool, String arguments) {
        return env.step(Action.CallTools.of("probe", tool, arguments));
    }

    /** One tool call in the current episode of {@code env}; returns its observation (the first of the step). */
    static Observation call(Env env, String tool, String arguments) {
        return step(env, tool, arguments).observations().getFirst();
    }

    static Observation call(Env env, Call c) {
        return call(env, c.tool(), c.call().arguments());
    }

    static ObjectNode args(Call c) {
        return (ObjectNode) Json.parse(c.call().arguments());
    }

    /** Every leaf of a JSON value, in document order, as path=value lines (for comparing data through renamed keys). */
    static List<String> leaves(JsonNode v) {
        List<String> out = new ArrayList<>();
        leaves(v, "", out);
        return out;
    }

    private static void leaves(JsonNode v, String path, List<String> out) {
        if (v.isObject()) v.properties().forEach(e -> leaves(e.getValue(), path + "/" + e.getKey(), out));
        else if (v.isArray()) for (int i = 0; i < v.size(); i++) leaves(v.get(i), path + "/" + i, out);
        else out.add(path + "=" + v);
    }

    /** The leaves' values alone, in document order. */
    static List<String> values(JsonNode v) {
        return leaves(v).stream().map(l -> l.substring(l.indexOf('=') + 1)).collect(Collectors.toList());
    }
}
