package dev.openagent.bench;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.UserInputException;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.wire.OpenAiWire;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Load on {@code serve env} over loopback: N concurrent sessions, each stepping through oracle
 * episodes (actions recorded in-process beforehand, then replayed, so the client spends no time
 * choosing), over the OpenEnv WebSocket ({@code /ws}, one connection per session) and over the
 * HTTP API ({@code /reset}, {@code /step} on one keep-alive connection per session, the session
 * by its header). Each session has one request in flight; every {@value #SESSIONS_PER_CLIENT_THREAD}
 * sessions share one platform thread over non-blocking sockets ({@link ClientLoop}), so the
 * client costs little and its CPU time can be told apart from the server's. Each episode's last
 * step must come back done with reward 1, so the bench also checks that every session gets
 * exactly its own episodes. Bounded in steps and in wall time. With {@link Config#floor()} it
 * then measures the floor under these figures ({@link Floor}).
 */
public final class EnvLoadBench {
    /** How the bench talks to the server. */
    public enum Protocol {
        WS, HTTP;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        public static Protocol parse(String s) {
            for (Protocol p : values()) if (p.id().equals(s.strip().toLowerCase(Locale.ROOT))) return p;
            throw new UserInputException("--protocol must be ws, http, both or none, not '" + s + "'");
        }
    }

    /**
     * @param warmupSteps steps per session run first and not measured, so the figures are those of
     *                    compiled code rather than of the JIT compiler at work
     * @param protocols   measured one after the other, in this order
     * @param floor       then also measure the floor ({@link Floor}): the same messages answered in this process
     *                    without sockets, and the same client against a canned server (sockets only)
     */
    public record Config(String url, String env, String shift, int sessions, int stepsPerSession, int warmupSteps,
                         int distinctTasks, Duration maxTime, List<Protocol> protocols, boolean floor) {
        public Config {
            if (warmupSteps < 0) throw new UserInputException("--warmup-steps must be >= 0");
            if (sessions < 1 || sessions > 4096) throw new UserInputException("--sessions must be between 1 and 4096");
            if (stepsPerSession < 1 || stepsPerSession > 1_000_000) throw new UserInputException("--steps must be between 1 and 1000000");
            if (distinctTasks < 1) throw new UserInputException("--tasks must be at least 1");
            if (protocols.isEmpty() && !floor) throw new UserInputException("nothing to measure: no protocol and no floor");
            protocols = List.copyOf(protocols);
            if (url != null && !HttpService.isLoopback(URI.create(url).getHost())) {
                throw new UserInputException("the load bench only targets loopback servers (127.0.0.1, ::1, localhost), not " + url);
            }
        }
    }

    /**
     * One protocol's figures. Latencies in microseconds ({@code Us}); JSON names in snake_case like
     * the other reports. CPU times per request (steps + resets): {@code cpu} is this whole process,
     * {@code client} the bench's own threads, {@code server} the rest of the process (its request
     * handling) when the server runs in it, else -1; {@code jit} and {@code gc} the JVM's compiler
     * and garbage-collector threads (read from /proc on Linux, else -1 and counted in the server's
     * figure), which on a short run are mostly warm-up rather than steady-state cost.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Report(String protocol, int sessions, long steps, long resets, long errors, List<String> errorSamples, double seconds,
                         double stepsPerSecond, double requestsPerSecond,
                         double stepP50Us, double stepP99Us, double stepMaxUs, double resetP50Us, double resetP99Us,
                         boolean timedOut, int processors, double loadAverageBefore, double loadAverageAfter,
                         double cpuUsPerRequest, double clientCpuUsPerRequest, double serverCpuUsPerRequest, double serverCpuUsPerStep,
                         double jitCpuUsPerRequest, double gcCpuUsPerRequest, String target) {}

    /** The names of the floor's two reports ({@link Floor}). */
    public static final String FLOOR_IN_PROCESS = "floor-in-process", FLOOR_CANNED = "floor-canned-ws";

    /** One oracle episode: its task and its actions, in wire form. */
    record Episode(int taskIndex, List<byte[]> actions) {}

    /** The episode (an index into the recorded ones) session {@code session} starts with. */
    static int firstEpisode(int session, int episodes) { return session % episodes; }

    /** The episode after {@code e}: the sessions take the recorded episodes in turn. */
    static int nextEpisode(int e, int sessions, int episodes) { return (e + sessions) % episodes; }

    /** Whether an answer's {@code {observation, reward, done}} ends the episode with reward 1, as every oracle episode's last step must. */
    static boolean solved(JsonNode answer) {
        return answer.path("done").asBoolean() && answer.path("reward").asDouble() == 1.0;
    }

    /** A reset's data: a session's first names the environment, shift and split; later ones keep them and name the task. */
    static String resetData(Config c, Episode ep, boolean first) {
        return first ? "{\"env\":" + Json.write(c.env()) + ",\"shift\":" + Json.write(c.shift()) + ",\"split\":\"train\",\"task\":"
                + ep.taskIndex() + "}" : "{\"task\":" + ep.taskIndex() + "}";
    }

    private EnvLoadBench() {}

    /**
     * One report per protocol, in the order of {@link Config#protocols()}, then (with {@link
     * Config#floor()}) the floor's two ({@link #FLOOR_IN_PROCESS}, {@link #FLOOR_CANNED}); a
     * protocol with errors ends the run.
     */
    public static List<Report> run(Catalog catalog, Config c) throws IOException, InterruptedException {
        EnvChoice choice = EnvChoice.of(catalog, c.env(), c.shift());
        List<Episode> episodes = record(choice, c.distinctTasks());
        EnvServer local = null;
        String base = c.url();
        if (base == null && !c.protocols().isEmpty()) {
            EnvServer.Config sc = EnvServer.Config.loopback(false).withCatalog(catalog);
            local = EnvServer.start(sc.withLimits(Math.max(sc.maxSessions(), c.sessions()), sc.idleTtl(), sc.maxBodyBytes()));
            base = local.baseUrl();
        }
        try {
            long deadline = System.nanoTime() + c.maxTime().toNanos();
            String target = local == null ? base : "in-process server at " + base;
            List<Report> reports = new ArrayList<>();
            for (Protocol p : c.protocols()) {
                URI uri = URI.create(base.replaceAll("/+$", ""));
                InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
                String host = uri.getRawAuthority();
                Client client = new Client(p.id(), () -> p == Protocol.WS ? new Wire.WebSocket(host) : new Wire.Http(host), address,
                        local != null);
                if (!measure(client, c, episodes, deadline, target, reports)) return reports;
            }
            if (c.floor()) {
                Floor.InProcess inProcess = Floor.measureInProcess(catalog, c, episodes, deadline);
                reports.add(inProcess.report());
                if (inProcess.report().errors() > 0) return reports;
                try (CannedWebSocketServer canned = new CannedWebSocketServer(inProcess.resetAnswer(), inProcess.stepAnswer())) {
                    InetSocketAddress at = new InetSocketAddress("127.0.0.1", canned.port());
                    String host = "127.0.0.1:" + canned.port();
                    Client client = new Client(FLOOR_CANNED, () -> new Wire.WebSocket(host), at, true);
                    measure(client, c, episodes, deadline, "canned WebSocket answers at ws://" + host + "/ws (no environment)", reports);
                }
            }
            return reports;
        } finally {
            if (local != null) local.close();
        }
    }

    /** Warms up, then measures one client; false (after adding the failed phase's report) when a phase had errors. */
    private static boolean measure(Client client, Config c, List<Episode> episodes, long deadline, String target,
                                   List<Report> reports) throws IOException, InterruptedException {
        if (c.warmupSteps() > 0) {
            Report warm = phase(client, c, episodes, c.warmupSteps(), deadline, target);
            if (warm.errors() > 0) {
                reports.add(warm);
                return false;
            }
        }
        Report r = phase(client, c, episodes, c.stepsPerSession(), deadline, target);
        reports.add(r);
        return r.errors() == 0;
    }

    /**
     * What the sessions speak ({@code name} in the report), where they connect, and whether the
     * server shares this process (so its CPU time is ours minus the client's).
     */
    private record Client(String name, Supplier<Wire> wire, InetSocketAddress address, boolean inProcess) {}

    /**
     * Sessions per client thread (one select loop each, see {@link ClientLoop}): 64 sessions run
     * on 8 threads. Fewer sessions per thread cost the client a little more CPU per step; more
     * stall them all together whenever the scheduler preempts their thread (on a shared 2-core
     * machine, 32 per thread gave a median step latency of 1.4-2.2 ms against 0.07-0.09 ms with 8).
     */
    static final int SESSIONS_PER_CLIENT_THREAD = 8;

    private static Report phase(Client client, Config c, List<Episode> episodes, int stepsPerSession,
                                long deadline, String target) throws IOException, InterruptedException {
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        AtomicLong errorCount = new AtomicLong();
        Worker[] all = new Worker[c.sessions()];
        List<List<ClientLoop.Conversation>> parts = new ArrayList<>();
        int threads = (c.sessions() + SESSIONS_PER_CLIENT_THREAD - 1) / SESSIONS_PER_CLIENT_THREAD;
        for (int t = 0; t < threads; t++) parts.add(new ArrayList<>());
        try {
            for (int s = 0; s < c.sessions(); s++) {
                all[s] = new Worker(client.wire().get(), c, episodes, s, stepsPerSession, deadline, errors, errorCount);
                all[s].connect(client.address());
                parts.get(s % threads).add(all[s]);
            }
        } catch (IOException e) {
            for (Worker w : all) if (w != null) w.closeQuietly();
            throw e;
        }
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        JvmThreadsCpu jvm0 = JvmThreadsCpu.read();
        List<ClientLoop> loops = new ArrayList<>();
        List<Thread> running = new ArrayList<>();
        // Platform threads: their CPU time is measurable (a virtual thread's is not).
        for (int t = 0; t < threads; t++) {
            ClientLoop loop = new ClientLoop(parts.get(t), deadline + TimeUnit.SECONDS.toNanos(30));
            loops.add(loop);
            running.add(Thread.ofPlatform().name("bench-client-" + t).start(loop));
        }
        for (Thread t : running) t.join();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpu = processCpuNanos() - cpu0;
        JvmThreadsCpu jvm = JvmThreadsCpu.read().minus(jvm0);
        long steps = 0, resets = 0, clientCpu = 0;
        boolean timedOut = false;
        for (ClientLoop loop : loops) clientCpu = clientCpu < 0 || loop.cpuNanos < 0 ? -1 : clientCpu + loop.cpuNanos;
        List<long[]> stepLat = new ArrayList<>(), resetLat = new ArrayList<>();
        for (Worker w : all) {
            steps += w.steps;
            resets += w.resets;
            timedOut |= w.timedOut;
            stepLat.add(Arrays.copyOf(w.stepNanos, w.steps));
            resetLat.add(Arrays.copyOf(w.resetNanos, w.resets));
        }
        List<String> samples = new ArrayList<>(errors);
        long serverCpu = client.inProcess() && cpu >= 0 && clientCpu >= 0
                ? cpu - clientCpu - Math.max(0, jvm.jitNanos()) - Math.max(0, jvm.gcNanos()) : -1;
        return report(client.name(), c.sessions(), steps, resets, errorCount.get(), samples, seconds, merge(stepLat), merge(resetLat),
                timedOut, loadBefore, cpu, clientCpu, serverCpu, jvm, target);
    }

    /**
     * A report from what a phase measured.
     *
     * @param stepNanos  every step's latency, sorted
     * @param resetNanos every reset's latency, sorted
     * @param cpu        this process's CPU time over the phase (or -1), and of it the client's and the server's
     */
    static Report report(String name, int sessions, long steps, long resets, long errors, List<String> errorSamples, double seconds,
                         long[] stepNanos, long[] resetNanos, boolean timedOut, double loadBefore, long cpu, long clientCpu, long serverCpu,
                         JvmThreadsCpu jvm, String target) {
        long requests = steps + resets;
        return new Report(name, sessions, steps, resets, errors, List.copyOf(errorSamples.subList(0, Math.min(5, errorSamples.size()))),
                seconds, steps / seconds, requests / seconds, pct(stepNanos, 0.50), pct(stepNanos, 0.99),
                stepNanos.length == 0 ? 0 : stepNanos[stepNanos.length - 1] / 1e3, pct(resetNanos, 0.50), pct(resetNanos, 0.99), timedOut,
                Runtime.getRuntime().availableProcessors(), loadBefore,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                perRequest(cpu, requests), perRequest(clientCpu, requests), perRequest(serverCpu, requests),
                perRequest(serverCpu, steps), perRequest(jvm.jitNanos(), requests), perRequest(jvm.gcNanos(), requests), target);
    }

    private static double perRequest(long cpuNanos, long requests) {
        return cpuNanos < 0 ? -1 : cpuNanos / 1e3 / Math.max(1, requests);
    }

    /** CPU time of this process (client and, when in-process, server), or -1 where the JVM cannot tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : -1;
    }

    private static long[] merge(List<long[]> parts) {
        long[] all = new long[parts.stream().mapToInt(a -> a.length).sum()];
        int i = 0;
        for (long[] p : parts) {
            System.arraycopy(p, 0, all, i, p.length);
            i += p.length;
        }
        Arrays.sort(all);
        return all;
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) return 0;
        return sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e3;
    }

    /** The oracle's actions on the first {@code n} tasks of the train split, in wire form. */
    private static List<Episode> record(EnvChoice choice, int n) {
        Env env = choice.create();
        TaskChoice tasks = new TaskChoice(Split.TRAIN, 0, 1);
        OracleAgent oracle = new OracleAgent();
        List<Episode> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            AgentSession session = oracle.begin(env.reset(tasks.byIndex(i)), env);
            List<byte[]> actions = new ArrayList<>();
            Step last = null;
            do {
                Action a = session.act(last);
                actions.add(Json.write(OpenAiWire.action(a)).getBytes(StandardCharsets.UTF_8));
                last = env.step(a);
            } while (!last.done());
            if (!last.outcome().success()) throw new IllegalStateException("the oracle failed task " + i + ": " + last.outcome());
            out.add(new Episode(i, List.copyOf(actions)));
        }
        return Collections.unmodifiableList(out);
    }

    private static final JsonNode UNPARSED = Json.object();

    /**
     * One session: a connection, the oracle episodes it replays (each opened by a reset naming
     * the task) and its latencies, as a conversation the {@link ClientLoop} drives. Each
     * episode's last step must come back done with reward 1.
     */
    private static final class Worker implements ClientLoop.Conversation {
        private final Wire wire;
        private final Config c;
        private final List<Episode> episodes;
        private final int index;
        private final long deadline;
        private final ConcurrentLinkedQueue<String> errors;
        private final AtomicLong errorCount;
        final long[] stepNanos;
        long[] resetNanos = new long[64];
        int steps;
        int resets;
        boolean timedOut;
        private SocketChannel channel;
        /** The HTTP session (null over the WebSocket, where the connection is the session). */
        private String session;
        private int e;
        private Episode ep;
        /** The next action of {@link #ep} to send. */
        private int a;
        private Wire.Kind pending;
        private boolean pendingLast;
        private long sentAt;

        Worker(Wire wire, Config c, List<Episode> episodes, int index, int stepsToDo, long deadline,
               ConcurrentLinkedQueue<String> errors, AtomicLong errorCount) {
            this.wire = wire;
            this.c = c;
            this.episodes = episodes;
            this.index = index;
            this.deadline = deadline;
            this.errors = errors;
            this.errorCount = errorCount;
            this.stepNanos = new long[stepsToDo];
        }

        void connect(InetSocketAddress address) throws IOException {
            channel = SocketChannel.open();
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.socket().connect(address, 5_000);
            wire.open(channel);
        }

        void closeQuietly() {
            if (channel != null) ClientLoop.closeQuietly(channel);
        }

        @Override
        public SocketChannel channel() { return channel; }

        @Override
        public ByteBuffer start() {
            e = firstEpisode(index, episodes.size());
            ep = episodes.get(e);
            return send(Wire.Kind.RESET, resetData(c, ep, true).getBytes(StandardCharsets.UTF_8), false);
        }

        @Override
        public ByteBuffer read(ByteBuffer in) throws IOException {
            Wire.Reply r = wire.next(in);
            if (r == null) return ClientLoop.WAIT;
            long took = System.nanoTime() - sentAt;
            switch (pending) {
                case RESET -> {
                    if (resets == resetNanos.length) resetNanos = Arrays.copyOf(resetNanos, resets * 2);
                    resetNanos[resets++] = took;
                    if (r.status() != 200) return fail("reset", r);
                    if (r.sessionId() != null) session = r.sessionId();
                }
                case STEP -> {
                    stepNanos[steps++] = took;
                    if (r.status() != 200) return fail("step", r);
                    if (pendingLast) {
                        JsonNode answer = observation(r);
                        if (!solved(answer)) {
                            failed("session " + index + " task " + ep.taskIndex() + ": the oracle's last action did not end with reward 1: " + r.text());
                            return null;
                        }
                    }
                }
                case CLOSE -> {
                    if (r.status() != 200) fail("close", r);
                    return null;
                }
            }
            if (steps == stepNanos.length) {
                return session != null && wire.answered(Wire.Kind.CLOSE) ? send(Wire.Kind.CLOSE, new byte[0], false) : null;
            }
            if (System.nanoTime() > deadline) {
                timedOut = true;
                failed("session " + index + " stopped at the time limit after " + steps + " steps");
                return null;
            }
            if (a == ep.actions().size()) {
                e = nextEpisode(e, c.sessions(), episodes.size());
                ep = episodes.get(e);
                a = 0;
                return send(Wire.Kind.RESET, resetData(c, ep, false).getBytes(StandardCharsets.UTF_8), false);
            }
            boolean last = a == ep.actions().size() - 1;
            return send(Wire.Kind.STEP, ep.actions().get(a++), last);
        }

        private ByteBuffer send(Wire.Kind kind, byte[] data, boolean last) {
            pending = kind;
            pendingLast = last;
            ByteBuffer request = ByteBuffer.wrap(wire.request(kind, data, session));
            sentAt = System.nanoTime();
            return request;
        }

        /** The {@code {observation, reward, done}} of an answer. */
        private JsonNode observation(Wire.Reply r) throws IOException {
            JsonNode n = Json.MAPPER.readTree(r.body());
            return wire instanceof Wire.WebSocket ? n.path("data") : n;
        }

        @Override
        public ByteBuffer goodbye() {
            return wire.answered(Wire.Kind.CLOSE) ? null : ByteBuffer.wrap(wire.request(Wire.Kind.CLOSE, new byte[0], session));
        }

        private ByteBuffer fail(String what, Wire.Reply r) {
            failed("session " + index + " " + what + ": " + (r.status() == 0 ? "" : "HTTP " + r.status() + " ") + r.text());
            return null;
        }

        @Override
        public void failed(String message) {
            errorCount.incrementAndGet();
            if (errors.size() < 20) errors.add(message.startsWith("session ") ? message : "session " + index + ": " + message);
        }
    }
}
