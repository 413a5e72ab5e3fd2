package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.DelegatingEnv;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Watches the world an agent acts in: sits directly around it, under every shift that only changes what the
 * agent is shown ({@code ShiftStack.apply(base, WorldTap::new)}), and keeps what the world started the episode
 * with and every call it received with its answer. The view-only solver reads it to know which values are
 * true and whether the world received the call a plan step intends; it never reads a shift's own state.
 * Changes nothing: every call passes through unchanged.
 */
public final class WorldTap extends DelegatingEnv {

    /**
     * One call the world received: the tool (or {@link GoldPlan#COMMAND} with the normalised command as {@code text})
     * with its arguments (null when they were not a JSON object) and the world's answer (null when none came).
     */
    public record Call(String tool, ObjectNode args, Observation answer) {
        /** Whether the world carried the call out (answered without an error). */
        public boolean succeeded() { return answer != null && !answer.isError(); }
    }

    private Start start;
    private Task task;
    private final List<Call> calls = new ArrayList<>();

    public WorldTap(Env world) {
        super(world);
    }

    @Override
    public Start reset(TaskRequest request) {
        calls.clear();
        start = inner.reset(request);
        task = inner.task();
        return start;
    }

    @Override
    public Step step(Action action) {
        Step s = inner.step(action);
        switch (action) {
            case Action.CallTools c -> {
                for (Action.ToolCall call : c.calls()) {
                    if (call.name().isEmpty()) continue; // a turn a shift layer answered itself, sent down to be counted
                    Observation answer = s.observations().stream().filter(o -> call.id().equals(o.callId())).findFirst().orElse(null);
                    calls.add(new Call(call.name(), argsOf(call.arguments()), answer));
                }
            }
            case Action.Command c -> calls.add(new Call(GoldPlan.COMMAND, command(c.text()), s.observations().isEmpty() ? null : s.observations().getFirst()));
            default -> { }
        }
        return s;
    }

    /** What the world showed at the start of the episode: its own tools, prompt and request. */
    public Start start() { return start; }

    /** The task as the world posed it, before any shift restated it. */
    public Task task() { return task; }

    /** Every call the world received this episode, in order. */
    public List<Call> calls() { return List.copyOf(calls); }

    /** How many calls the world received so far (a mark for {@link #since}). */
    public int size() { return calls.size(); }

    /** The calls received since {@code mark} ({@link #size} at an earlier time). */
    public List<Call> since(int mark) { return List.copyOf(calls.subList(Math.min(mark, calls.size()), calls.size())); }

    /** A command as the world's plan states it: its normalised text under {@code text}. */
    public static ObjectNode command(String text) {
        return Json.object("text", Commands.normalize(text));
    }

    private static ObjectNode argsOf(String arguments) {
        try {
            JsonNode a = arguments.isBlank() ? Json.object() : Json.MAPPER.readTree(arguments);
            return a instanceof ObjectNode o ? o : null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }
}
