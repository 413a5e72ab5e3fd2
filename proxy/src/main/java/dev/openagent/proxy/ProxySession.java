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
import dev.openagent.UserInputException;
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

import dev.openagent.byo.McpConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
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
    private static final Logger LOG = LoggerFactory.getLogger(ProxySession.class);

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
    private final Map<String, ToolFacts> facts;
    private final FileEnvironment.ScoredTask scoredTask;
    private Domain<Upstream> domain;
    /** Set when the upstream says its tools changed: the next list or call rebuilds the shifted tools. */
    private volatile boolean toolsChanged;
    /** Where the client's transport takes the upstream's notifications (and this session's own tools/list_changed). */
    private final List<Consumer<McpConnection.Notification>> listeners = new CopyOnWriteArrayList<>();
    /** How many GET event streams the client has open on this session (HTTP): they carry the notifications then. */
    final java.util.concurrent.atomic.AtomicInteger streams = new java.util.concurrent.atomic.AtomicInteger();
    /** The client's requests being answered, and those of them the client cancelled (they get no response). */
    private final Set<JsonNode> inProgress = ConcurrentHashMap.newKeySet();
    private final Set<JsonNode> cancelled = ConcurrentHashMap.newKeySet();
    /** The client's request id of the tool call running now (null when none), and whether it was cancelled. */
    private volatile JsonNode running;
    private volatile String cancelReason;
    private Outcome outcome;
    private final List<Call> calls = new ArrayList<>();
    /** The session as a conversation: each call, what the upstream received and answered, and what the agent got. */
    private final List<Message> messages = new ArrayList<>();
    private final Map<String, Integer> errorCodes = new TreeMap<>();
    private final long startedAt = System.currentTimeMillis();
    private int toolErrors;
    private String client = "mcp-client";
    private boolean finished;
    private List<ShiftRecord> shifts = List.of();
    private Env env;
    private List<ToolSpec> tools;
    /** A scored session's task query, the request its recording starts with (null when unscored). */
    private String query;
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
     * @param scored the environment file's task the session is scored by (--env FILE --task ID), or null; a scored
     *               session shows the client {@value #SUBMIT_ANSWER} as well
     */
    public ProxySession(Upstream upstream, ShiftStack stack, long seed, Map<String, ToolFacts> facts, FileEnvironment.ScoredTask scored) {
        this.upstream = upstream;
        this.stack = stack;
        this.seed = seed;
        this.facts = facts;
        this.scoredTask = scored;
        this.domain = ProxyDomain.of(upstream, facts, scored, r -> lastReceived = r);
        Optional<String> why = notApplicable(stack, domain);
        if (why.isPresent()) throw new UserInputException("shift " + why.get());
        open();
        shifts = env.spec().shifts();
        messages.add(Message.system("openagent proxy session: the tools of " + upstream.describe() + " under " + stack.label() + " (seed " + seed + ")"));
    }

    /** Whether the session is scored by a task (then it has {@value #SUBMIT_ANSWER}). */
    private boolean scored() { return scoredTask != null; }

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
        if (scored()) {
            shown.add(SUBMIT_ANSWER_SPEC);
            query = started.query();
        }
        tools = List.copyOf(shown);
    }

    /** The tools as the client sees them (rebuilt first when the upstream's changed). */
    public synchronized List<ToolSpec> tools() {
        refresh();
        return tools;
    }

    /**
     * The upstream sent a notification: a {@code tools/list_changed} marks the shifted tools for rebuilding (not now:
     * this runs on the upstream connection's thread, which must not wait on the upstream); each is passed to the
     * client's listeners, so the client lists the tools again and gets the rebuilt ones.
     */
    public void upstreamNotified(McpConnection.Notification n) {
        if (n.method().equals("notifications/tools/list_changed")) toolsChanged = true;
        listeners.forEach(l -> l.accept(n));
    }

    /** Tells {@code listener} what the client should be sent (the upstream's notifications), until removed. */
    public void onNotification(Consumer<McpConnection.Notification> listener) { listeners.add(listener); }

    public void removeListener(Consumer<McpConnection.Notification> listener) { listeners.remove(listener); }

    /**
     * Rebuilds the shifted tools from the upstream's new list, through the same engine on the same seed. The
     * engine draws a shift's choices (an opaque id, a synonym) in the list's order, so a tool keeps its shown name
     * when the tools before it are unchanged (a tool added at the end); others may be shown under new names. The
     * episode's shift state (a drift, a set change) starts over, as after an upstream restart.
     */
    private void refresh() {
        if (!toolsChanged) return;
        toolsChanged = false;
        Domain<Upstream> rebuilt;
        try {
            rebuilt = ProxyDomain.of(upstream, facts, scoredTask, r -> lastReceived = r);
        } catch (IllegalArgumentException | InfrastructureException e) {
            LOG.warn("proxy mcp: the upstream's tools changed, but cannot be listed ({}): the session keeps its tools", e.getMessage());
            return;
        }
        Optional<String> why = notApplicable(stack, rebuilt);
        if (why.isPresent()) {
            LOG.warn("proxy mcp: the upstream's tools changed, but shift {}: the session keeps its tools", why.get());
            return;
        }
        domain = rebuilt;
        env = null;
        open();
        messages.add(Message.system("the upstream's tools changed: the client is shown " + tools.size() + " tools now"));
    }

    /** The client sent this request (by its JSON-RPC id) to be answered; {@link #answered} says whether it was cancelled. */
    void begin(JsonNode id) { inProgress.add(id); }

    /** The request was answered: true when the client cancelled it meanwhile (then it gets no response). */
    boolean answered(JsonNode id) {
        inProgress.remove(id);
        return cancelled.remove(id);
    }

    /**
     * The client cancelled its request {@code id} ({@code notifications/cancelled}): it will get no response, and
     * when it is the tool call running now, the upstream is sent the cancellation of its own request.
     */
    public void cancel(JsonNode id, String reason) {
        if (id == null || !inProgress.contains(id)) return;   // answered already, or never asked
        cancelled.add(id);
        if (id.equals(running)) cancelRunning(reason == null ? "cancelled by the client" : reason);
    }

    private void cancelRunning(String reason) {
        cancelReason = reason;
        upstream.cancelCall(reason);
    }

    /**
     * The proxy is stopping, or the session ending: a tool call still running after {@code grace} is cancelled
     * (the upstream told, the call recorded as {@code CANCELLED}), so the session is recorded without waiting for it.
     */
    public void interrupt(java.time.Duration grace) {
        long until = System.nanoTime() + grace.toNanos();
        while (running != null && System.nanoTime() < until) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (running != null) cancelRunning("the proxy is stopping");
    }

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
        return call(name, arguments, meta, null);
    }

    /** As {@link #call(String, Map, Map)} for the client's request {@code requestId}, which the client may {@link #cancel}. */
    public synchronized Reply call(String name, Map<String, Object> arguments, Map<String, Object> meta, JsonNode requestId) {
        refresh();
        JsonNode args = arguments == null ? Json.object() : Json.tree(arguments);
        if (requestId != null && cancelled.contains(requestId)) {
            // cancelled while it waited for an earlier call: never forwarded
            Reply reply = new Reply(McpConnection.CANCELLED + ": cancelled by the client", true, CANCELLED);
            record(new Call(name, args, null, reply, 0), CANCELLED);
            return reply;
        }
        upstream.meta.set(meta);
        running = requestId == null ? NO_ID : requestId;
        cancelReason = null;
        try {
            Reply reply = step(name, arguments);
            return reply;
        } finally {
            running = null;
            upstream.meta.remove();
        }
    }

    /** The error code a cancelled call is recorded with. */
    public static final String CANCELLED = "CANCELLED";
    /** The running call's id when the client gave none (a direct call, as the tests make). */
    private static final JsonNode NO_ID = Json.MAPPER.getNodeFactory().textNode("");

    /** The agent's final answer: judged now by the task's checks (the state checks call the upstream). */
    private Reply submit(Map<String, Object> arguments) {
        Object given = arguments == null ? null : arguments.get("answer");
        if (!(given instanceof String text)) return new Reply("submit_answer needs 'answer' (a string)", true);
        if (outcome != null) return new Reply("an answer was already submitted", true);
        messages.add(Message.assistant(text));
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
        if (!scored()) {
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
        if (scored() && name.equals(SUBMIT_ANSWER)) return submit(arguments);
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
        String reason = cancelReason;
        if (reason != null) {
            // The upstream was told; what it answered (if anything) is not the call's result.
            text.setLength(0);
            text.append(McpConnection.CANCELLED).append(": ").append(reason);
            code = CANCELLED;
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

    /** A note in the session's recording, after the calls made so far (a watch event, docs/watch.md). */
    public synchronized void note(String text) { messages.add(Message.system(text)); }

    /** When the session started, in epoch milliseconds. */
    public long startedAt() { return startedAt; }

    /**
     * The session so far as a trajectory: the tools the client was shown, every call both ways, and {@code outcome}.
     *
     * @param agent the client's name as it introduced itself (or "mcp-client")
     */
    public synchronized Trajectory trajectory(String agent, Outcome outcome) {
        Task t = task();
        if (scored() && t != null) {
            // The request the session is scored against comes first, as the user's: the proxy never sees the client's
            // own prompt, and a recording that starts from the task reads (and exports) as an episode does.
            List<Message> recorded = new ArrayList<>();
            if (query != null && !query.isBlank()) recorded.add(Message.user(query));
            recorded.addAll(messages);
            return new Trajectory(ProxyDomain.ID, t.id(), t.split().id(), seed, t.difficulty(), t.kind(), t.solvable(), shifts, agent, tools,
                    recorded, outcome, new Stats(calls.size(), calls.size(), toolErrors, errorCodes, 0, 0));
        }
        return new Trajectory(ProxyDomain.ID, "session", Split.TEST.id(), seed, 1, "session", true, shifts, agent, tools,
                messages, outcome, new Stats(calls.size(), calls.size(), toolErrors, errorCodes, 0, 0));
    }
}
