package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftStack;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One client session through the proxy: the upstream's tools as a {@link Domain}, wrapped in the shift stack by
 * the same engine every run uses ({@link ShiftStack#apply}), reset once on the session's seed. A tool call is one
 * {@link Env#step}: the layers map the shown name and arguments back to the upstream's, and shift its result on
 * the way out. Thread-safe: calls are serialised.
 */
public final class ProxySession {
    /** What a call returns to the client. */
    /** @param code the error code of the first failed observation (an {@link ToolError.Code} name), or null */
    public record Reply(String text, boolean error, String code) {
        Reply(String text, boolean error) {
            this(text, error, error ? "ERROR" : null);
        }

        /** Whether the name called is no tool of the session (the engine's UNKNOWN_TOOL). */
        public boolean unknownTool() { return ToolError.Code.UNKNOWN_TOOL.name().equals(code); }
    }

    /** One call both ways: as the agent made it, as the upstream received it (null when no layer let it through), and the reply. */
    public record Call(String tool, JsonNode args, ProxyDomain.Received upstream, Reply reply, long nanos) {}

    /** The tool a scored session (--task) adds, for the agent's final answer: the answer checks judge it. */
    public static final String SUBMIT_ANSWER = "submit_answer";
    private static final ToolSpec SUBMIT_ANSWER_SPEC = new ToolSpec(SUBMIT_ANSWER,
            "Submit your final answer to the user's request, once, when you are done: the session is scored by it.",
            (ObjectNode) Json.parse("{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\",\"description\":\"the final answer\"}},\"required\":[\"answer\"]}"));

    /** The role of the recorded message that holds what the upstream received and answered (docs/proxy.md). */
    public static final String UPSTREAM_ROLE = "upstream";

    /** The upstream failed during a call (it is restarted on the next one). */
    public static final class UpstreamFailure extends RuntimeException {
        UpstreamFailure(String message) { super(message); }
    }

    private final Upstream upstream;
    private final ShiftStack stack;
    private final long seed;
    private final Domain<Upstream> domain;
    /** Whether the session is scored by a task (then it has {@value #SUBMIT_ANSWER}). */
    private final boolean scored;
    private String answer;
    private Outcome outcome;
    private final List<Call> calls = new ArrayList<>();
    /** The session as a conversation: each call, what the upstream received and answered, and what the agent got. */
    private final List<Message> messages = new ArrayList<>();
    private final Map<String, Integer> errorCodes = new TreeMap<>();
    private final long startedAt = System.currentTimeMillis();
    private int toolErrors;
    private String client = "mcp-client";
    private boolean finished;
    private Start start;
    private List<ShiftRecord> shifts = List.of();
    private Env env;
    private List<ToolSpec> tools;
    private ProxyDomain.Received lastReceived;
    private int next;

    /**
     * Lists the upstream's tools and applies the stack.
     *
     * @throws IllegalArgumentException when a layer of the stack cannot apply to the upstream's tools (the message says why)
     */
    public ProxySession(Upstream upstream, ShiftStack stack, long seed) {
        this(upstream, stack, seed, Map.of());
    }

    /** @param facts facts about the upstream's tools by name, from an environment file (--env) */
    public ProxySession(Upstream upstream, ShiftStack stack, long seed, Map<String, ToolFacts> facts) {
        this(upstream, stack, seed, facts, null);
    }

    /**
     * @param scored the environment file's task the session is scored by (--env FILE --task ID), or null: then the
     *               client is shown {@value #SUBMIT_ANSWER} as well
     */
    public ProxySession(Upstream upstream, ShiftStack stack, long seed, Map<String, ToolFacts> facts, FileEnvironment.ScoredTask scored) {
        this.upstream = upstream;
        this.stack = stack;
        this.seed = seed;
        this.scored = scored != null;
        this.domain = ProxyDomain.of(upstream, facts, scored, r -> lastReceived = r);
        Optional<String> why = notApplicable(stack, domain);
        if (why.isPresent()) throw new IllegalArgumentException("shift " + why.get());
        open();
    }

    private static Optional<String> notApplicable(ShiftStack stack, Domain<Upstream> domain) {
        for (ShiftStack.Layer l : stack.layers()) {
            Optional<String> why = ProxyDomain.notApplicable(l.shift().id(), domain);
            if (why.isPresent()) return Optional.of(l.shift().id() + " cannot apply in the proxy: " + why.get());
        }
        return stack.notApplicable(DomainEnv.infoOf(domain)).map(w -> w + " (upstream tools)");
    }

    /** A fresh shifted environment on the session's seed: the same seed shows the same names, so a restart keeps them. */
    private void open() {
        env = stack.apply(new DomainEnv<>(domain, Integer.MAX_VALUE));
        Start started = env.reset(TaskRequest.of(Split.TEST, seed));
        List<ToolSpec> shown = new ArrayList<>(started.tools());
        shown.removeIf(t -> t.name().equals(Protocol.ASK_USER));   // there is no simulated user behind the proxy
        if (scored) shown.add(SUBMIT_ANSWER_SPEC);
        tools = List.copyOf(shown);
        if (start == null) {
            start = started.withTools(tools);
            shifts = env.spec().shifts();
            messages.add(Message.system("openagent proxy session: the tools of " + upstream.describe() + " under " + stack.label() + " (seed " + seed + ")"));
        }
    }

    /** The tools as the client sees them. */
    public synchronized List<ToolSpec> tools() { return tools; }

    public ShiftStack stack() { return stack; }

    public long seed() { return seed; }

    public Upstream upstream() { return upstream; }

    /** Every call so far, in order. */
    public synchronized List<Call> calls() { return List.copyOf(calls); }

    /**
     * Calls a tool by the name the client sees.
     *
     * @throws UpstreamFailure when the upstream crashed, hung or could not be restarted
     */
    public synchronized Reply call(String name, Map<String, Object> arguments) {
        return call(name, arguments, null);
    }

    /** As {@link #call(String, Map)}, passing the call's {@code _meta} (a progress token) on to the upstream. */
    public synchronized Reply call(String name, Map<String, Object> arguments, Map<String, Object> meta) {
        upstream.meta.set(meta);
        try {
            return step(name, arguments);
        } finally {
            upstream.meta.remove();
        }
    }

    /** The agent's final answer: judged now by the task's checks (the state checks call the upstream). */
    private Reply submit(Map<String, Object> arguments) {
        Object given = arguments == null ? null : arguments.get("answer");
        if (!(given instanceof String text)) return new Reply("submit_answer needs 'answer' (a string)", true);
        if (outcome != null) return new Reply("an answer was already submitted", true);
        messages.add(Message.assistant(text));
        answer = text;
        outcome = judge(text);
        return new Reply("answer submitted", false);
    }

    private Outcome judge(String text) {
        if (env == null) open();
        return env.step(new Action.Answer(text)).outcome();
    }

    /**
     * The session's outcome: unscored without a task; with one, the submitted answer's, or (none submitted) the
     * task's checks on an empty answer, so a task checked by the server's state alone is scored all the same.
     */
    public synchronized Outcome outcome() {
        if (!scored) {
            int n = calls.size();
            return new Outcome(false, Outcome.End.UNSCORED, "proxy session: " + n + (n == 1 ? " call" : " calls") + ", no task to score it by");
        }
        if (outcome != null) return outcome;
        Outcome judged;
        try {
            judged = judge("");
        } catch (InfrastructureException e) {
            return new Outcome(false, Outcome.End.INFRA_ERROR, "the upstream failed during the checks: " + e.getMessage());
        }
        return judged.success() ? judged : new Outcome(false, judged.end(), "no answer was submitted (" + SUBMIT_ANSWER + "); " + judged.detail());
    }

    /** Whether the client is shown a tool of this name. */
    public synchronized boolean shows(String name) {
        return tools.stream().anyMatch(t -> t.name().equals(name));
    }

    private Reply step(String name, Map<String, Object> arguments) {
        if (scored && name.equals(SUBMIT_ANSWER)) return submit(arguments);
        if (outcome != null) return new Reply("the task is answered and the session scored: no more calls", true);
        long begin = System.nanoTime();
        JsonNode args = arguments == null ? Json.object() : Json.tree(arguments);
        lastReceived = null;
        if (env == null) open();
        Step step;
        try {
            step = env.step(Action.CallTools.of("call_" + (next++), name, Json.write(args)));
        } catch (InfrastructureException e) {
            // The layers may be mid-call: start over on the same seed once the upstream is back.
            ProxyDomain.Received sent = lastReceived;
            String message = "the upstream MCP server failed: " + e.getMessage() + "; it is restarted on the next call";
            record(new Call(name, args, sent, new Reply(message, true), System.nanoTime() - begin), "UPSTREAM_FAILED");
            try {
                open();
            } catch (RuntimeException restartFailed) {
                env = null;
            }
            throw new UpstreamFailure(message);
        }
        StringBuilder text = new StringBuilder();
        String code = null;
        for (Observation o : step.observations()) {
            if (!text.isEmpty()) text.append('\n');
            text.append(o.text());
            if (o.isError() && code == null) code = o.error().code().name();
        }
        Reply reply = new Reply(text.toString(), code != null, code);
        record(new Call(name, args, lastReceived, reply, System.nanoTime() - begin), code);
        return reply;
    }

    /**
     * Keeps the call and writes it into the conversation: the agent's call, then (when a layer let it through)
     * what the upstream received and answered as an {@value #UPSTREAM_ROLE} message, then the reply the agent got.
     */
    private void record(Call call, String errorCode) {
        calls.add(call);
        String id = "call_" + calls.size();
        messages.add(Message.assistantCalls(List.of(Message.ToolCall.of(id, call.tool(), Json.write(call.args())))));
        ObjectNode wire = Json.object();
        ProxyDomain.Received u = call.upstream();
        wire.put("forwarded", u != null);
        if (u != null) {
            wire.put("tool", u.tool());
            wire.set("arguments", u.args());
            if (u.result() != null) {
                wire.put("result", u.result());
                wire.put("is_error", u.error());
                wire.put("upstream_ms", u.nanos() / 1e6);
            } else {
                wire.put("result", (String) null);
            }
        }
        wire.put("proxy_ms", call.nanos() / 1e6);
        messages.add(new Message(UPSTREAM_ROLE, Json.write(wire), null, id, u == null ? null : u.tool(), null));
        messages.add(Message.tool(id, call.tool(), call.reply().text(), errorCode));
        if (errorCode != null) {
            toolErrors++;
            errorCodes.merge(errorCode, 1, Integer::sum);
        }
    }

    /** The task the session is scored by: a proxy session's own open one (no query, no checks). */
    public Task task() { return env == null ? null : env.task(); }

    /** The client's name as it introduced itself in {@code initialize}, for the recording. */
    public synchronized void client(String name) {
        if (name != null && !name.isBlank()) client = name;
    }

    public synchronized String client() { return client; }

    /** Marks the session finished; true only the first time, so a session is recorded once however it ends. */
    public synchronized boolean finish() {
        if (finished) return false;
        finished = true;
        return true;
    }

    /** When the session started, in epoch milliseconds. */
    public long startedAt() { return startedAt; }

    /**
     * The session so far as a trajectory: the tools the client was shown, every call both ways, and {@code outcome}.
     *
     * @param agent the client's name as it introduced itself (or "mcp-client")
     */
    public synchronized Trajectory trajectory(String agent, Outcome outcome) {
        Task t = task();
        if (scored && t != null) {
            return new Trajectory(ProxyDomain.ID, t.id(), t.split().id(), seed, t.difficulty(), t.kind(), t.solvable(), shifts, agent, tools,
                    messages, outcome, new Stats(calls.size(), calls.size(), toolErrors, errorCodes, 0, 0));
        }
        return new Trajectory(ProxyDomain.ID, "session", Split.TEST.id(), seed, 1, "session", true, shifts, agent, tools,
                messages, outcome, new Stats(calls.size(), calls.size(), toolErrors, errorCodes, 0, 0));
    }
}
