package dev.openagent.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.byo.McpConnection;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Params;
import dev.openagent.domain.Surface;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;
import dev.openagent.domain.Vocabulary;
import dev.openagent.json.Json;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolFacts;
import io.modelcontextprotocol.spec.McpSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The upstream's tools as a {@link Domain}, so the shift engine wraps them exactly as it wraps any environment:
 * every tool calls the upstream by its real name with the arguments the shift layers mapped back. A proxy session
 * is open-ended: its "task" has no query, no plan and no checks, and it never ends by itself.
 */
final class ProxyDomain {
    static final String ID = "proxy";
    /** Shift families that read or change the task (its query, plan or checks): a proxy session has none. */
    private static final List<String> NEED_A_TASK = List.of("query.", "task.", "logic.", "domain.", "action.", "interface.");

    /**
     * One call as the upstream received it and answered it: its real tool name and arguments, its result text
     * (null when it crashed or hung), whether that was a tool error, and how long it took.
     */
    public record Received(String tool, ObjectNode args, String result, boolean error, long nanos) {}

    private ProxyDomain() {}

    /**
     * @param received told each call as the upstream receives it (for the recording)
     * @param scored the environment file's task the session is scored by (--task), or null for an open session: its
     *               answer checks judge the submitted answer, its state checks call the upstream's tools
     */
    static Domain<Upstream> of(Upstream upstream, Map<String, ToolFacts> facts, FileEnvironment.ScoredTask scored, Consumer<Received> received) {
        List<McpSchema.Tool> listed = upstream.tools();
        if (listed.isEmpty()) throw new UserInputException("the upstream MCP server lists no tools");
        List<Tool<Upstream>> tools = new ArrayList<>();
        for (McpSchema.Tool t : listed) {
            ObjectNode schema = Json.MAPPER.valueToTree(t.inputSchema() == null ? Map.of("type", "object") : t.inputSchema());
            if (!schema.path("properties").isObject()) schema.set("properties", Json.object());
            if (!schema.path("required").isArray()) schema.set("required", Json.array());
            String name = t.name();
            Tool<Upstream> tool = new Tool<>(name, t.description() == null ? "" : t.description(), Params.ofSchema(schema), (u, args) -> {
                ObjectNode sent = args.json();
                long begin = System.nanoTime();
                received.accept(new Received(name, sent, null, false, 0));
                McpConnection.Result r = u.call(name, sent);
                received.accept(new Received(name, sent, r.text(), r.error(), System.nanoTime() - begin));
                if (r.error()) throw ToolFailure.domain(r.text());
                return McpConnection.value(r.text());
            });
            // Facts an environment file declares for a tool of this name (--env): the shifts that need them apply.
            if (facts.containsKey(name)) tool = new Tool<>(name, tool.description(), tool.params(), tool.behaviour(), facts.get(name));
            if (t.annotations() != null && Boolean.TRUE.equals(t.annotations().readOnlyHint())) tool = tool.readOnly();
            tools.add(tool);
        }
        Vocabulary<Upstream> words = new Vocabulary<>(Map.of(), List.of(), (task, world, rnd) -> List.of());
        if (scored == null) {
            TaskKind<Upstream, Object> session = TaskKind.of("session", 1, g -> true);
            return new Domain<>(ID, "the tools of " + upstream.describe(), "", new Surface.FunctionCalls<>(tools), (split, seed) -> upstream,
                    List.of(session), ProxyDomain::openTask, (task, world, answer) -> null, words);
        }
        Task task = scored.task();
        TaskKind<Upstream, Object> kind = TaskKind.of(task.kind(), task.difficulty(), g -> true);
        return new Domain<>(task.env(), "the tools of " + upstream.describe(), "", new Surface.FunctionCalls<>(tools), (split, seed) -> upstream,
                List.of(kind), (u, request, seed) -> task, (t, u, answer) -> scored.stateChecks().apply((tool, args) -> {
                    McpConnection.Result r = u.call(tool, args);
                    if (r.error()) throw ToolFailure.domain(r.text());
                    return r.text();
                }), words);
    }

    private static Task openTask(Upstream upstream, TaskRequest request, long seed) {
        return new Task("session", ID, request.split(), seed, "session", 1, "", GoldPlan.answer(List.of(), ""), true,
                List.of(), List.of(), Map.of(), List.of(), Map.of(), false);
    }

    /**
     * Why a shift cannot apply in a proxy session, if it cannot: it needs a task, or a fact about the tools that
     * an MCP server does not declare (as a file environment reports it, docs/bring-your-own.md).
     */
    static Optional<String> notApplicable(String shiftId, Domain<Upstream> domain) {
        if (NEED_A_TASK.stream().anyMatch(shiftId::startsWith)) {
            // Even with --task: the agent's request comes from its own user, not from the task the proxy scores by.
            return Optional.of("it changes the task (query, plan or checks), and a proxy session has no task; the proxy applies tool.* and obs.* shifts");
        }
        boolean records = ((Surface.FunctionCalls<Upstream>) domain.surface()).tools().stream().anyMatch(t -> !t.facts().records().isEmpty());
        if (shiftId.equals("obs.missing-values") && !records) {
            return Optional.of("no upstream tool declares 'record_of' (the record it returns by id, to recover a missing field; declare it in an environment file given with --env)");
        }
        return Optional.empty();
    }
}
