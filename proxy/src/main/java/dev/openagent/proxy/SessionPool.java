package dev.openagent.proxy;

import dev.openagent.UserInputException;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.shift.ShiftStack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The proxy's client sessions: each MCP session (the one stdio client, or each {@code Mcp-Session-Id} over HTTP)
 * gets its own {@link ProxySession} on its own seed (and, given several stacks, the stack its seed draws), all on
 * the one upstream. The first session's seed is the
 * proxy's seed; the n-th derives from it, so {@code --seed} fixes every session and sessions still differ.
 * At most {@code max} are open at once; a session unused for {@code idle} is closed. A closed session is
 * recorded (when there is a recorder) once.
 */
public final class SessionPool implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SessionPool.class);

    /** More sessions than the pool holds: the client is told so. */
    public static final class Full extends RuntimeException {
        Full(String message) { super(message); }
    }

    private record Entry(ProxySession session, long[] lastUsed) {}

    private final Upstream upstream;
    private final List<ShiftStack> stacks;
    private final Map<String, ToolFacts> facts;
    private final FileEnvironment.ScoredTask scored;
    private final long seed;
    private final int max;
    private final Duration idle;
    private final SessionRecorder recorder;
    private final Map<String, Entry> open = new LinkedHashMap<>();
    private final ScheduledExecutorService reaper;
    /**
     * The open sessions for the upstream's notifications, read without the pool's lock: they come on the upstream
     * connection's thread, which must never wait for the lock ({@link #open} holds it while it lists the tools).
     */
    private final List<ProxySession> listening = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.function.Consumer<dev.openagent.byo.McpConnection.Notification> notifications = n -> listening.forEach(s -> s.upstreamNotified(n));
    private int opened;
    private boolean closed;
    private boolean toldRestart;
    /** How long a tool call still running when its session ends (SIGTERM, DELETE, idle) may take before it is cancelled. */
    static final Duration GRACE = Duration.ofSeconds(2);

    /** @param recorder where closed sessions are recorded, or null */
    public SessionPool(Upstream upstream, ShiftStack stack, long seed, int max, Duration idle, SessionRecorder recorder) {
        this(upstream, stack, Map.of(), seed, max, idle, recorder);
    }

    /** @param facts facts about the upstream's tools by name, from an environment file (--env) */
    public SessionPool(Upstream upstream, ShiftStack stack, Map<String, ToolFacts> facts, long seed, int max, Duration idle, SessionRecorder recorder) {
        this(upstream, stack, facts, null, seed, max, idle, recorder);
    }

    /** @param scored the task every session is scored by (--env FILE --task ID), or null */
    public SessionPool(Upstream upstream, ShiftStack stack, Map<String, ToolFacts> facts, FileEnvironment.ScoredTask scored, long seed, int max,
                       Duration idle, SessionRecorder recorder) {
        this(upstream, List.of(stack), facts, scored, seed, max, idle, recorder);
    }

    /**
     * @param stacks the stacks sessions draw from by their seed (one, or the conditions of a tier or a list)
     * @param scored the task every session is scored by (--env FILE --task ID), or null
     */
    public SessionPool(Upstream upstream, List<ShiftStack> stacks, Map<String, ToolFacts> facts, FileEnvironment.ScoredTask scored, long seed, int max,
                       Duration idle, SessionRecorder recorder) {
        if (stacks.isEmpty()) throw new UserInputException("no shift stack to serve");
        if (max < 1) throw new UserInputException("the pool needs room for a session");
        this.upstream = upstream;
        this.stacks = List.copyOf(stacks);
        this.facts = Map.copyOf(facts);
        this.scored = scored;
        this.seed = seed;
        this.max = max;
        this.idle = idle;
        this.recorder = recorder;
        this.reaper = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "proxy-idle-sessions");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(1, Math.min(idle.toMillis() / 4, 30_000));
        reaper.scheduleWithFixedDelay(this::closeIdle, every, every, TimeUnit.MILLISECONDS);
        upstream.onNotification(notifications);   // each open session passes them to its client
    }

    /** How many stacks the sessions draw from. */
    public int stacks() { return stacks.size(); }

    /** The stack of the n-th session: the one stack, or one of several drawn by the session's seed. */
    public ShiftStack stackOf(int n) { return stacks.get((int) Math.floorMod(seedOf(n), (long) stacks.size())); }


    /** The seed of the n-th session (0-based): the proxy's seed first. */
    public long seedOf(int n) { return n == 0 ? seed : Seeds.derive(seed, "proxy-session-" + n); }

    /**
     * Opens a session with a new id.
     *
     * @throws Full when {@code max} sessions are open
     */
    public synchronized Map.Entry<String, ProxySession> open() {
        if (closed) throw new Full("the proxy is stopping");
        if (open.size() >= max) {
            throw new Full("the proxy serves at most " + max + " sessions at once: end one (HTTP DELETE) or wait " + idle.toSeconds()
                    + " s for an idle one to close");
        }
        if (scored != null && scored.reset() != null) refill(scored.reset());
        ProxySession s = new ProxySession(upstream, stackOf(opened), seedOf(opened), facts, scored);
        opened++;
        String id = UUID.randomUUID().toString();
        open.put(id, new Entry(s, new long[] {System.nanoTime()}));
        listening.add(s);
        onOpen.forEach(h -> h.accept(s));
        return Map.entry(id, s);
    }

    private final List<java.util.function.Consumer<ProxySession>> onOpen = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Tells {@code hook} each session as it opens (the watch notes its standing events in it). */
    public void onOpen(java.util.function.Consumer<ProxySession> hook) { onOpen.add(hook); }

    /**
     * A scored session starts as an episode does: the upstream's folder refilled from the file's {@code reset.copy}
     * (the upstream restarted first if it holds files there open), so no session sees another's writes.
     */
    private void refill(FileEnvironment.Reset reset) {
        List<String> held = upstream.releaseFiles(reset.workdir());
        if (!held.isEmpty() && !toldRestart) {
            toldRestart = true;
            LOG.warn("proxy mcp: the upstream keeps {} of {} open: it is restarted before each scored session, as the folder is refilled",
                    String.join(", ", held), reset.workdir());
        }
        reset.refill();
    }

    /** The open session of this id (marking it used), or null. */
    public synchronized ProxySession get(String id) {
        Entry e = id == null ? null : open.get(id);
        if (e == null) return null;
        e.lastUsed()[0] = System.nanoTime();
        return e.session();
    }

    /** Whether {@code session} is still open under {@code id} (not marking it used: a listening stream is not a use). */
    public synchronized boolean holds(String id, ProxySession session) {
        Entry e = open.get(id);
        return e != null && e.session() == session;
    }

    /** Every open session. */
    public synchronized List<ProxySession> sessions() {
        return open.values().stream().map(Entry::session).toList();
    }

    /** How many sessions were opened so far. */
    public synchronized int opened() { return opened; }

    /** Ends the session (recording it); false when no session has that id. */
    public boolean close(String id) {
        Entry e;
        synchronized (this) {
            e = open.remove(id);
        }
        if (e == null) return false;
        end(e.session());
        return true;
    }

    private void end(ProxySession s) {
        listening.remove(s);
        s.interrupt(GRACE);   // a call in flight would hold the session (and its recording) up to --timeout
        if (recorder != null) recorder.record(s);
    }

    private void closeIdle() {
        long now = System.nanoTime();
        List<ProxySession> idled = new ArrayList<>();
        synchronized (this) {
            open.entrySet().removeIf(e -> {
                boolean old = now - e.getValue().lastUsed()[0] > idle.toNanos();
                if (old) idled.add(e.getValue().session());
                return old;
            });
        }
        idled.forEach(this::end);
    }

    /** Ends every open session (recording each) and stops the idle check; the upstream is its owner's to close. */
    @Override
    public void close() {
        List<ProxySession> all;
        synchronized (this) {
            if (closed) return;
            closed = true;
            all = new ArrayList<>(sessions());
            open.clear();
        }
        reaper.shutdownNow();
        upstream.removeListener(notifications);
        listening.clear();
        // Every session's call in flight gets the same grace, at once, not one after the other.
        long until = System.nanoTime() + GRACE.toNanos();
        for (ProxySession s : all) s.interrupt(Duration.ofNanos(Math.max(0, until - System.nanoTime())));
        if (recorder != null) all.forEach(recorder::record);
    }
}
