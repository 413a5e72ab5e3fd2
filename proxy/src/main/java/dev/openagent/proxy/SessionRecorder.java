package dev.openagent.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Outcome;
import dev.openagent.server.FinishedEpisode;
import dev.openagent.server.StoreEpisodeSink;
import dev.openagent.shift.ShiftStack;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.security.SecureRandom;

/**
 * Writes each finished proxy session into the results store as one episode of the proxy's run (one run per
 * proxy process, as {@code serve mcp} records its episodes), so {@code report} and its trajectory browser show
 * it: the shift stack and seed, every call as the agent made it and as the upstream received it, both results,
 * and the latencies (docs/proxy.md, "Reading the recording").
 */
public final class SessionRecorder implements AutoCloseable {
    private final StoreEpisodeSink sink;
    private int sessions;

    private SessionRecorder(StoreEpisodeSink sink) {
        this.sink = sink;
    }

    /** A recorder writing to {@code store} (closed with the recorder) as a new run named after the upstream and the stack. */
    public static SessionRecorder toStore(ResultStore store, String upstream, ShiftStack stack) {
        return toStore(store, upstream, stack.label(), stack);
    }

    /**
     * @param spec  the --shift text (one stack, or a tier or list the sessions draw from)
     * @param stack the stack the run is named by when every session has the same
     */
    public static SessionRecorder toStore(ResultStore store, String upstream, String spec, ShiftStack stack) {
        String runId = "proxy-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + HexFormat.of().toHexDigits((short) new SecureRandom().nextInt());
        ObjectNode config = Json.object().put("server", "proxy").put("env", ProxyDomain.ID).put("upstream", upstream).put("shift", spec);
        return new SessionRecorder(new StoreEpisodeSink(store, true, runId, "proxy mcp " + upstream + " --shift " + spec, config, stack));
    }

    /** Whether a stored run is one a proxy recorded (its experiment, as {@link #toStore} writes it, names the proxy as its server). */
    public static boolean recordedByProxy(RunInfo run) { return run.server().equals("proxy"); }

    public String describe() { return sink.describe(); }

    /** Records the session once (a second call for the same session does nothing), scored by its task if it has one. */
    public synchronized void record(ProxySession session) {
        if (!session.finish()) return;
        Outcome outcome = session.outcome();
        sink.record(new FinishedEpisode(session.trajectory(session.client(), outcome), session.task(), sessions++,
                System.currentTimeMillis() - session.startedAt()), session.stack());
    }

    @Override
    public synchronized void close() {
        sink.close();
    }
}
