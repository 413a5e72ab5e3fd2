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
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
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
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Load on {@code serve env} over loopback with keep-alive: N concurrent sessions, each stepping
 * through oracle episodes (actions recorded in-process beforehand, replayed over HTTP, so the
 * client spends no time choosing). Each session is one platform thread on one keep-alive
 * connection ({@link KeepAliveConnection}), so the client costs little and its CPU time can be
 * told apart from the server's. Each episode's last step must come back done with reward 1,
 * so the bench also checks that every session gets exactly its own episodes. Bounded in steps
 * and in wall time.
 */
public final class EnvLoadBench {
    /**
     * @param warmupSteps steps per session run first and not measured, so the figures are those of
     *                    compiled code rather than of the JIT compiler at work
     */
    public record Config(String url, String env, String shift, int sessions, int stepsPerSession, int warmupSteps,
                         int distinctTasks, Duration maxTime) {
        public Config {
            if (warmupSteps < 0) throw new IllegalArgumentException("--warmup-steps must be >= 0");
            if (sessions < 1 || sessions > 4096) throw new IllegalArgumentException("--sessions must be between 1 and 4096");
            if (stepsPerSession < 1 || stepsPerSession > 1_000_000) throw new IllegalArgumentException("--steps must be between 1 and 1000000");
            if (distinctTasks < 1) throw new IllegalArgumentException("--tasks must be at least 1");
            if (url != null && !HttpService.isLoopback(URI.create(url).getHost())) {
                throw new IllegalArgumentException("the load bench only targets loopback servers (127.0.0.1, ::1, localhost), not " + url);
            }
        }
    }

    /**
     * Latencies in microseconds ({@code Us}); JSON names in snake_case like the other reports. CPU
     * times per request (steps + resets): {@code cpu} is this whole process, {@code client} the
     * bench's own threads, {@code server} the rest of the process (its request handling) when the
     * server runs in it, else -1; {@code jit} and {@code gc} the JVM's compiler
     * and garbage-collector threads (read from /proc on Linux, else -1 and counted in the server's
     * figure), which on a short run are mostly warm-up rather than steady-state cost.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Report(int sessions, long steps, long resets, long errors, List<String> errorSamples, double seconds,
                         double stepsPerSecond, double requestsPerSecond,
                         double stepP50Us, double stepP99Us, double stepMaxUs, double resetP50Us, double resetP99Us,
                         boolean timedOut, int processors, double loadAverageBefore, double loadAverageAfter,
                         double cpuUsPerRequest, double clientCpuUsPerRequest, double serverCpuUsPerRequest,
                         double jitCpuUsPerRequest, double gcCpuUsPerRequest, String target) {}

    private record Episode(int taskIndex, List<byte[]> actions) {}

    private EnvLoadBench() {}

    public static Report run(Config c) throws IOException, InterruptedException {
        EnvChoice choice = EnvChoice.of(c.env(), c.shift());
        List<Episode> episodes = record(choice, c.distinctTasks());
        EnvServer local = null;
        String base = c.url();
        if (base == null) {
            EnvServer.Config sc = EnvServer.Config.loopback(false);
            local = EnvServer.start(new EnvServer.Config(sc.host(), 0, BearerAuth.NONE, Math.max(sc.maxSessions(), c.sessions()),
                    sc.idleTtl(), sc.maxBodyBytes(), false));
            base = local.baseUrl();
        }
        base = base.replaceAll("/+$", "");
        URI uri = URI.create(base);
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 80 : uri.getPort());
        String hostHeader = uri.getRawAuthority();
        try {
            long deadline = System.nanoTime() + c.maxTime().toNanos();
            String target = local == null ? base : "in-process server at " + base;
            Client client = new Client(address, hostHeader, local != null);
            if (c.warmupSteps() > 0) {
                Report warm = phase(client, c, episodes, c.warmupSteps(), deadline, target);
                if (warm.errors() > 0) return warm;
            }
            return phase(client, c, episodes, c.stepsPerSession(), deadline, target);
        } finally {
            if (local != null) local.close();
        }
    }

    /** Where the workers connect, and whether the server shares this process (so its CPU time is ours minus theirs). */
    private record Client(InetSocketAddress address, String hostHeader, boolean inProcess) {}

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
        return new Report(c.sessions(), steps, resets, errorCount.get(), samples.subList(0, Math.min(5, samples.size())),
                seconds, steps / seconds, (steps + resets) / seconds, pct(st, 0.50), pct(st, 0.99),
                st.length == 0 ? 0 : st[st.length - 1] / 1e3, pct(rt, 0.50), pct(rt, 0.99), timedOut,
                Runtime.getRuntime().availableProcessors(), loadBefore,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                perRequest(cpu, steps + resets), perRequest(clientCpu, steps + resets),
                client.inProcess() && cpu >= 0 && clientCpu >= 0
                        ? perRequest(cpu - clientCpu - Math.max(0, jvm.jitNanos()) - Math.max(0, jvm.gcNanos()), steps + resets) : -1,
                perRequest(jvm.jitNanos(), steps + resets), perRequest(jvm.gcNanos(), steps + resets), target);
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
            TaskRequest request = tasks.byIndex(i);
            AgentSession session = oracle.begin(env.reset(request), env);
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

    private static final class Worker implements Runnable {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

        private final KeepAliveConnection connection;
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
        /** This worker thread's CPU time over its run, or -1 where the JVM cannot tell. */
        long cpuNanos = -1;

        Worker(Client client, Config c, List<Episode> episodes, int index, int stepsToDo, long deadline,
               ConcurrentLinkedQueue<String> errors, AtomicLong errorCount) {
            // The read timeout only unblocks a worker whose server hangs; the phase deadline bounds the run.
            int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1_000, c.maxTime().toMillis() + 30_000));
            this.connection = new KeepAliveConnection(client.address(), client.hostHeader(), timeout);
            this.c = c;
            this.episodes = episodes;
            this.index = index;
            this.deadline = deadline;
            this.errors = errors;
            this.errorCount = errorCount;
            this.stepNanos = new long[stepsToDo];
        }

        @Override
        public void run() {
            long cpu0 = THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
            String session = null;
            try {
                int e = index % episodes.size();
                Episode first = episodes.get(e);
                JsonNode created = post("/v1/sessions", ("{\"env\":" + Json.write(c.env()) + ",\"shift\":" + Json.write(c.shift())
                        + ",\"split\":\"train\",\"task\":" + first.taskIndex() + "}").getBytes(StandardCharsets.UTF_8), true);
                if (created == null) return;
                session = created.get("session_id").asText();
                String stepPath = "/v1/sessions/" + session + "/step";
                String resetPath = "/v1/sessions/" + session + "/reset";
                Episode ep = first;
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
                        long t = System.nanoTime();
                        JsonNode r = post(resetPath, ("{\"task\":" + ep.taskIndex() + "}").getBytes(StandardCharsets.UTF_8), true);
                        if (resets == resetNanos.length) resetNanos = Arrays.copyOf(resetNanos, resets * 2);
                        resetNanos[resets++] = System.nanoTime() - t;
                        if (r == null) return;
                    }
                    boolean last = a == ep.actions().size() - 1;
                    long t = System.nanoTime();
                    JsonNode r = post(stepPath, ep.actions().get(a++), last);
                    stepNanos[steps++] = System.nanoTime() - t;
                    if (last && r != null && !(r.path("done").asBoolean() && r.path("reward").asDouble() == 1.0)) {
                        fail("session " + index + " task " + ep.taskIndex() + ": the oracle's last action did not end with reward 1: " + r);
                    }
                }
            } catch (IOException | RuntimeException e) {
                fail("session " + index + ": " + e);
            } finally {
                if (session != null) delete("/v1/sessions/" + session);
                connection.close();
                if (cpu0 >= 0) cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
            }
        }

        /** The parsed response when {@code parse}, else null; counts non-200 answers as errors. */
        private JsonNode post(String path, byte[] body, boolean parse) throws IOException {
            KeepAliveConnection.Response resp = connection.exchange(connection.head("POST", path, body.length), body);
            if (resp.status() != 200) {
                fail("HTTP " + resp.status() + " on " + path + ": " + resp.text());
                return parse ? null : Json.object();
            }
            return parse ? Json.MAPPER.readTree(resp.body()) : Json.object();
        }

        private void delete(String path) {
            try {
                KeepAliveConnection.Response resp = connection.exchange(connection.head("DELETE", path, -1), null);
                if (resp.status() != 200) fail("HTTP " + resp.status() + " closing the session: " + resp.text());
            } catch (IOException e) {
                fail("closing the session: " + e);
            }
        }

        private void fail(String message) {
            errorCount.incrementAndGet();
            if (errors.size() < 20) errors.add(message);
        }
    }
}
