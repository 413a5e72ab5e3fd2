package dev.openagent.server.bench;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.agent.OracleAgent;
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
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load on {@code serve env} over loopback: N concurrent sessions, each stepping through oracle
 * episodes (actions recorded in-process beforehand, then replayed, so the client spends no time
 * choosing), over the OpenEnv WebSocket ({@code /ws}, one connection per session) and over the
 * HTTP API ({@code /reset}, {@code /step} on one keep-alive connection per session, the session
 * by its header). Each session is one platform thread with a minimal blocking client, so the
 * client costs little and its CPU time can be told apart from the server's. Each episode's last
 * step must come back done with reward 1, so the bench also checks that every session gets
 * exactly its own episodes. Bounded in steps and in wall time.
 */
public final class EnvLoadBench {
    /** How the bench talks to the server. */
    public enum Protocol {
        WS, HTTP;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        public static Protocol parse(String s) {
            for (Protocol p : values()) if (p.id().equals(s.strip().toLowerCase(Locale.ROOT))) return p;
            throw new IllegalArgumentException("--protocol must be ws, http or both, not '" + s + "'");
        }
    }

    /**
     * @param warmupSteps steps per session run first and not measured, so the figures are those of
     *                    compiled code rather than of the JIT compiler at work
     * @param protocols   measured one after the other, in this order
     */
    public record Config(String url, String env, String shift, int sessions, int stepsPerSession, int warmupSteps,
                         int distinctTasks, Duration maxTime, List<Protocol> protocols) {
        public Config {
            if (warmupSteps < 0) throw new IllegalArgumentException("--warmup-steps must be >= 0");
            if (sessions < 1 || sessions > 4096) throw new IllegalArgumentException("--sessions must be between 1 and 4096");
            if (stepsPerSession < 1 || stepsPerSession > 1_000_000) throw new IllegalArgumentException("--steps must be between 1 and 1000000");
            if (distinctTasks < 1) throw new IllegalArgumentException("--tasks must be at least 1");
            if (protocols.isEmpty()) throw new IllegalArgumentException("no protocol to measure");
            protocols = List.copyOf(protocols);
            if (url != null && !HttpService.isLoopback(URI.create(url).getHost())) {
                throw new IllegalArgumentException("the load bench only targets loopback servers (127.0.0.1, ::1, localhost), not " + url);
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

    private record Episode(int taskIndex, List<byte[]> actions) {}

    private EnvLoadBench() {}

    /** One report per protocol, in the order of {@link Config#protocols()}; a protocol with errors ends the run. */
    public static List<Report> run(Config c) throws IOException, InterruptedException {
        EnvChoice choice = EnvChoice.of(c.env(), c.shift());
        List<Episode> episodes = record(choice, c.distinctTasks());
        EnvServer local = null;
        String base = c.url();
        if (base == null) {
            EnvServer.Config sc = EnvServer.Config.loopback(false);
            local = EnvServer.start(sc.withLimits(Math.max(sc.maxSessions(), c.sessions()), sc.idleTtl(), sc.maxBodyBytes()));
            base = local.baseUrl();
        }
        base = base.replaceAll("/+$", "");
        URI uri = URI.create(base);
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
        try {
            long deadline = System.nanoTime() + c.maxTime().toNanos();
            String target = local == null ? base : "in-process server at " + base;
            List<Report> reports = new ArrayList<>();
            for (Protocol p : c.protocols()) {
                Client client = new Client(p, address, uri.getRawAuthority(), local != null);
                if (c.warmupSteps() > 0) {
                    Report warm = phase(client, c, episodes, c.warmupSteps(), deadline, target);
                    if (warm.errors() > 0) {
                        reports.add(warm);
                        return reports;
                    }
                }
                Report r = phase(client, c, episodes, c.stepsPerSession(), deadline, target);
                reports.add(r);
                if (r.errors() > 0) return reports;
            }
            return reports;
        } finally {
            if (local != null) local.close();
        }
    }

    /** Where and how the workers connect, and whether the server shares this process (so its CPU time is ours minus theirs). */
    private record Client(Protocol protocol, InetSocketAddress address, String hostHeader, boolean inProcess) {}

    private static Report phase(Client client, Config c, List<Episode> episodes, int stepsPerSession,
                                long deadline, String target) throws InterruptedException {
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        Worker[] all = new Worker[c.sessions()];
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        AtomicLong errorCount = new AtomicLong();
        long t0 = System.nanoTime();
        long cpu0 = processCpuNanos();
        JvmThreadsCpu jvm0 = JvmThreadsCpu.read();
        // Platform threads: their CPU time is measurable (a virtual thread's is not), and blocking
        // reads on them wake directly instead of through the JDK's poller.
        try (ExecutorService workers = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().name("bench-client-", 0).factory())) {
            List<Future<?>> futures = new ArrayList<>();
            for (int s = 0; s < c.sessions(); s++) {
                all[s] = new Worker(client, c, episodes, s, stepsPerSession, deadline, errors, errorCount);
                futures.add(workers.submit(all[s]));
            }
            for (Future<?> f : futures) {
                try {
                    f.get(Math.max(0, deadline - System.nanoTime()) + TimeUnit.SECONDS.toNanos(30), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    errorCount.incrementAndGet();
                    errors.add("worker: " + e);
                    f.cancel(true);
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpu = processCpuNanos() - cpu0;
        JvmThreadsCpu jvm = JvmThreadsCpu.read().minus(jvm0);
        long steps = 0, resets = 0, clientCpu = 0;
        boolean timedOut = false;
        List<long[]> stepLat = new ArrayList<>(), resetLat = new ArrayList<>();
        for (Worker w : all) {
            steps += w.steps;
            resets += w.resets;
            timedOut |= w.timedOut;
            clientCpu = clientCpu < 0 || w.cpuNanos < 0 ? -1 : clientCpu + w.cpuNanos;
            stepLat.add(Arrays.copyOf(w.stepNanos, w.steps));
            resetLat.add(Arrays.copyOf(w.resetNanos, w.resets));
        }
        long[] st = merge(stepLat), rt = merge(resetLat);
        List<String> samples = new ArrayList<>(errors);
        long serverCpu = client.inProcess() && cpu >= 0 && clientCpu >= 0
                ? cpu - clientCpu - Math.max(0, jvm.jitNanos()) - Math.max(0, jvm.gcNanos()) : -1;
        return new Report(client.protocol().id(), c.sessions(), steps, resets, errorCount.get(), samples.subList(0, Math.min(5, samples.size())),
                seconds, steps / seconds, (steps + resets) / seconds, pct(st, 0.50), pct(st, 0.99),
                st.length == 0 ? 0 : st[st.length - 1] / 1e3, pct(rt, 0.50), pct(rt, 0.99), timedOut,
                Runtime.getRuntime().availableProcessors(), loadBefore,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                perRequest(cpu, steps + resets), perRequest(clientCpu, steps + resets), perRequest(serverCpu, steps + resets),
                perRequest(serverCpu, steps), perRequest(jvm.jitNanos(), steps + resets), perRequest(jvm.gcNanos(), steps + resets), target);
    }

    private static double perRequest(long cpuNanos, long requests) {
        return cpuNanos < 0 ? -1 : cpuNanos / 1e3 / Math.max(1, requests);
    }

    /** CPU time of this process (client and, when in-process, server), or -1 where the JVM cannot tell. */
    private static long processCpuNanos() {
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

    /** One session's conversation with the server, in either protocol. */
    private interface Channel extends AutoCloseable {
        /** Starts the episode; the answer's {@code {observation, reward, done}}, or null after counting an error. */
        JsonNode reset(byte[] data) throws IOException;

        /** One step; parses the answer only when {@code parse} (else checks it is an observation). */
        JsonNode step(byte[] action, boolean parse) throws IOException;

        @Override
        void close();
    }

    private static final byte[] WS_OBSERVATION = "{\"type\":\"observation\"".getBytes(StandardCharsets.US_ASCII);
    private static final JsonNode UNPARSED = Json.object();

    private static final class Worker implements Runnable {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        private final Client client;
        private final Config c;
        private final List<Episode> episodes;
        private final int index;
        private final long deadline;
        private final ConcurrentLinkedQueue<String> errors;
        private final AtomicLong errorCount;
        private final int timeoutMillis;
        final long[] stepNanos;
        long[] resetNanos = new long[64];
        int steps;
        int resets;
        boolean timedOut;
        /** This worker thread's CPU time over its run, or -1 where the JVM cannot tell. */
        long cpuNanos = -1;

        Worker(Client client, Config c, List<Episode> episodes, int index, int stepsToDo, long deadline,
               ConcurrentLinkedQueue<String> errors, AtomicLong errorCount) {
            this.client = client;
            this.c = c;
            this.episodes = episodes;
            this.index = index;
            this.deadline = deadline;
            this.errors = errors;
            this.errorCount = errorCount;
            this.stepNanos = new long[stepsToDo];
            // The read timeout only unblocks a worker whose server hangs; the phase deadline bounds the run.
            this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, Math.max(1_000, c.maxTime().toMillis() + 30_000));
        }

        @Override
        public void run() {
            long cpu0 = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
            try (Channel channel = client.protocol() == Protocol.WS ? new WsChannel() : new HttpChannel()) {
                int e = index % episodes.size();
                Episode ep = episodes.get(e);
                if (!started(channel, ("{\"env\":" + Json.write(c.env()) + ",\"shift\":" + Json.write(c.shift())
                        + ",\"split\":\"train\",\"task\":" + ep.taskIndex() + "}").getBytes(StandardCharsets.UTF_8))) return;
                int a = 0;
                while (steps < stepNanos.length) {
                    if (System.nanoTime() > deadline) {
                        timedOut = true;
                        fail("session " + index + " stopped at the time limit after " + steps + " steps");
                        return;
                    }
                    if (a == ep.actions().size()) {
                        e = (e + c.sessions()) % episodes.size();
                        ep = episodes.get(e);
                        a = 0;
                        if (!started(channel, ("{\"task\":" + ep.taskIndex() + "}").getBytes(StandardCharsets.UTF_8))) return;
                    }
                    boolean last = a == ep.actions().size() - 1;
                    long t = System.nanoTime();
                    JsonNode r = channel.step(ep.actions().get(a++), last);
                    stepNanos[steps++] = System.nanoTime() - t;
                    if (r == null) return;
                    if (last && !(r.path("done").asBoolean() && r.path("reward").asDouble() == 1.0)) {
                        fail("session " + index + " task " + ep.taskIndex() + ": the oracle's last action did not end with reward 1: " + r);
                    }
                }
            } catch (IOException | RuntimeException e) {
                fail("session " + index + ": " + e);
            } finally {
                if (cpu0 >= 0) cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        private boolean started(Channel channel, byte[] data) throws IOException {
            long t = System.nanoTime();
            JsonNode r = channel.reset(data);
            if (resets == resetNanos.length) resetNanos = Arrays.copyOf(resetNanos, resets * 2);
            resetNanos[resets++] = System.nanoTime() - t;
            return r != null;
        }

        private void fail(String message) {
            errorCount.incrementAndGet();
            if (errors.size() < 20) errors.add(message);
        }

        /** The OpenEnv WebSocket: one connection is the session. */
        private final class WsChannel implements Channel {
            private final WebSocketConnection ws;

            WsChannel() throws IOException {
                ws = new WebSocketConnection(client.address(), client.hostHeader(), "/ws", timeoutMillis);
            }

            @Override
            public JsonNode reset(byte[] data) throws IOException {
                return observation(exchange(concat("{\"type\":\"reset\",\"data\":", data)), true, "reset");
            }

            @Override
            public JsonNode step(byte[] action, boolean parse) throws IOException {
                return observation(exchange(concat("{\"type\":\"step\",\"data\":", action)), parse, "step");
            }

            private byte[] exchange(byte[] message) throws IOException {
                ws.send(message);
                return ws.receive();
            }

            private JsonNode observation(byte[] reply, boolean parse, String what) throws IOException {
                if (!startsWith(reply, WS_OBSERVATION)) {
                    fail("session " + index + " " + what + ": " + new String(reply, StandardCharsets.UTF_8));
                    return null;
                }
                return parse ? Json.MAPPER.readTree(reply).get("data") : UNPARSED;
            }

            @Override
            public void close() {
                try {
                    ws.send("{\"type\":\"close\"}".getBytes(StandardCharsets.US_ASCII));
                } catch (IOException ignored) {
                    // the server may have gone: the socket closes either way
                }
                ws.close();
            }
        }

        /** The HTTP API: one keep-alive connection, the session by its header. */
        private final class HttpChannel implements Channel {
            private final KeepAliveConnection http = new KeepAliveConnection(client.address(), client.hostHeader(), timeoutMillis);
            private String session;

            @Override
            public JsonNode reset(byte[] data) throws IOException {
                KeepAliveConnection.Response r = http.exchange(http.head("POST", "/reset", data.length, session), data);
                if (r.status() != 200) {
                    fail("HTTP " + r.status() + " on /reset: " + r.text());
                    return null;
                }
                session = r.sessionId();
                return Json.MAPPER.readTree(r.body());
            }

            @Override
            public JsonNode step(byte[] action, boolean parse) throws IOException {
                byte[] body = concat("{\"action\":", action);
                KeepAliveConnection.Response r = http.exchange(http.head("POST", "/step", body.length, session), body);
                if (r.status() != 200) {
                    fail("HTTP " + r.status() + " on /step: " + r.text());
                    return null;
                }
                return parse ? Json.MAPPER.readTree(r.body()) : UNPARSED;
            }

            @Override
            public void close() {
                try {
                    if (session != null) {
                        KeepAliveConnection.Response r = http.exchange(http.head("POST", "/close", 0, session), new byte[0]);
                        if (r.status() != 200) fail("HTTP " + r.status() + " closing the session: " + r.text());
                    }
                } catch (IOException e) {
                    fail("closing the session: " + e);
                } finally {
                    http.close();
                }
            }
        }
    }

    /** {@code prefix + body + "}"}: a JSON object wrapping an already-encoded value. */
    private static byte[] concat(String prefix, byte[] body) {
        byte[] p = prefix.getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(p, p.length + body.length + 1);
        System.arraycopy(body, 0, out, p.length, body.length);
        out[out.length - 1] = '}';
        return out;
    }

    private static boolean startsWith(byte[] b, byte[] prefix) {
        if (b.length < prefix.length) return false;
        for (int i = 0; i < prefix.length; i++) if (b[i] != prefix[i]) return false;
        return true;
    }
}
