package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.mcp.ToolReply;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One client session through the proxy: the upstream's tools as a {@link Domain}, wrapped in the shift stack by
 * the same engine every run uses ({@link ShiftStack#apply}), reset once on the session's seed. A tool call is one
 * {@link Env#step}: the layers map the shown name and arguments back to the upstream's, and shift its result on
 * the way out. Thread-safe: calls are serialised.
 */
public final class ProxySession {
    /** One call both ways: as the agent made it, as the upstream received it (null when no layer let it through), and the reply. */
    public record Call(String tool, JsonNode args, ProxyDomain.Received upstream, ToolReply reply, long nanos) {}

    /** The upstream failed during a call (it is restarted on the next one). */
    public static final class UpstreamFailure extends RuntimeException {
        UpstreamFailure(String message) { super(message); }
    }

    private final Upstream upstream;
    private final ShiftStack stack;
    private final long seed;
    private final Domain<Upstream> domain;
    private final List<Call> calls = new ArrayList<>();
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
        this.upstream = upstream;
        this.stack = stack;
        this.seed = seed;
        this.domain = ProxyDomain.of(upstream, r -> lastReceived = r);
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
        List<ToolSpec> shown = new ArrayList<>(env.reset(TaskRequest.of(Split.TEST, seed)).tools());
        shown.removeIf(t -> t.name().equals(Protocol.ASK_USER));   // there is no simulated user behind the proxy
        tools = List.copyOf(shown);
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
    public synchronized ToolReply call(String name, Map<String, Object> arguments) {
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
            calls.add(new Call(name, args, sent, new ToolReply(message, true), System.nanoTime() - begin));
            try {
                open();
            } catch (RuntimeException restartFailed) {
                env = null;
            }
            throw new UpstreamFailure(message);
        }
        ToolReply reply = ToolReply.of(step.observations());
        calls.add(new Call(name, args, lastReceived, reply, System.nanoTime() - begin));
        return reply;
    }
}
