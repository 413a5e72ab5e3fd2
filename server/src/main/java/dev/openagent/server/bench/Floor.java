package dev.openagent.server.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.server.env.EnvServer;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The floor under the load bench's figures: what a step costs with no server transport at all,
 * measured in two parts whose sum no server can beat on the same machine with the same client.
 * <ul>
 * <li>{@value #IN_PROCESS}: the same messages the WebSocket client sends, answered by the
 * {@code /ws} handler on one thread of this process ({@link EnvServer#inProcessSession()}):
 * parsing, the environment's reset and step, building and writing the answer's JSON. No socket,
 * framing or thread hand-off.</li>
 * <li>{@value #CANNED}: the same client and requests against {@link CannedWebSocketServer},
 * which answers at once with fixed frames of the real answers' mean sizes: the sockets, the
 * kernel's loopback TCP and the client, with nothing behind them.</li>
 * </ul>
 */
final class Floor {
    static final String IN_PROCESS = "floor-in-process";
    static final String CANNED = "floor-canned-ws";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The in-process part and, for the canned server, answers of the real answers' mean sizes.
     *
     * @param resetAnswer an observation message as long as the mean reset answer
     * @param stepAnswer  an observation message as long as the mean step answer, done with reward 1 (what the client checks on an episode's last step)
     */
    record InProcess(EnvLoadBench.Report report, byte[] resetAnswer, byte[] stepAnswer) {}

    private Floor() {}

    /**
     * Runs {@code c.sessions()} in-process sessions round-robin on this thread through the same
     * episodes as the bench's clients (warm-up steps first, not measured), checking each
     * episode's last answer for reward 1 as they do.
     */
    static InProcess inProcess(EnvLoadBench.Config c, List<EnvLoadBench.Episode> episodes, long deadline) throws IOException {
        EnvServer.Config sc = EnvServer.Config.loopback(false);
        try (EnvServer server = EnvServer.start(sc.withLimits(Math.max(sc.maxSessions(), 2 * c.sessions()), sc.idleTtl(), sc.maxBodyBytes()))) {
            if (c.warmupSteps() > 0) {
                Run warm = new Run(server, c, episodes);
                warm.go(c.warmupSteps(), deadline);
                if (warm.errors > 0) return new InProcess(warm.report(c), new byte[0], new byte[0]);
            }
            Run run = new Run(server, c, episodes);
            run.go(c.stepsPerSession(), deadline);
            EnvLoadBench.Report r = run.report(c);
            return new InProcess(r, padded(run.resetBytes / Math.max(1, run.resets), false),
                    padded(run.stepBytes / Math.max(1, run.steps), true));
        }
    }

    /** {@code {"type":"observation","data":{"observation":{"pad":"..."},"reward":...,"done":...}}}, {@code length} bytes long where it can be. */
    private static byte[] padded(long length, boolean done) {
        String head = "{\"type\":\"observation\",\"data\":{\"observation\":{\"pad\":\"";
        String tail = "\"},\"reward\":" + (done ? "1.0" : "null") + ",\"done\":" + done + "}}";
        int pad = (int) Math.max(0, Math.min(length, Wire.MAX_BODY) - head.length() - tail.length());
        return (head + "x".repeat(pad) + tail).getBytes(StandardCharsets.US_ASCII);
    }

    /** One measured pass: every session takes its steps, one message at a time, round-robin. */
    private static final class Run {
        private final EnvLoadBench.Config c;
        private final List<EnvLoadBench.Episode> episodes;
        private final List<UnaryOperator<String>> sessions = new ArrayList<>();
        private final List<String> errorSamples = new ArrayList<>();
        long steps, resets, errors, stepBytes, resetBytes;
        private long[] stepNanos = new long[1024], resetNanos = new long[256];
        private double seconds;
        private long threadCpu, processCpu;
        private JvmThreadsCpu jvm;
        private boolean timedOut;
        private double loadBefore;

        Run(EnvServer server, EnvLoadBench.Config c, List<EnvLoadBench.Episode> episodes) {
            this.c = c;
            this.episodes = episodes;
            for (int s = 0; s < c.sessions(); s++) sessions.add(server.inProcessSession());
        }

        void go(int stepsPerSession, long deadline) {
            int n = sessions.size();
            int[] episode = new int[n], action = new int[n], done = new int[n];
            boolean[] started = new boolean[n];
            loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            long t0 = System.nanoTime(), cpu0 = THREADS.getCurrentThreadCpuTime(), process0 = EnvLoadBench.processCpuNanos();
            JvmThreadsCpu jvm0 = JvmThreadsCpu.read();
            for (int left = n; left > 0; ) {
                if (System.nanoTime() > deadline) {
                    timedOut = true;
                    error("stopped at the time limit");
                    break;
                }
                left = 0;
                for (int s = 0; s < n; s++) {
                    if (done[s] == stepsPerSession) continue;
                    left++;
                    EnvLoadBench.Episode ep = episodes.get(episode[s]);
                    if (!started[s] || action[s] == ep.actions().size()) {
                        String data;
                        if (!started[s]) {
                            episode[s] = s % episodes.size();
                            ep = episodes.get(episode[s]);
                            data = "{\"env\":" + Json.write(c.env()) + ",\"shift\":" + Json.write(c.shift())
                                    + ",\"split\":\"train\",\"task\":" + ep.taskIndex() + "}";
                            started[s] = true;
                        } else {
                            episode[s] = (episode[s] + n) % episodes.size();
                            ep = episodes.get(episode[s]);
                            data = "{\"task\":" + ep.taskIndex() + "}";
                        }
                        action[s] = 0;
                        long t = System.nanoTime();
                        String answer = sessions.get(s).apply("{\"type\":\"reset\",\"data\":" + data + "}");
                        resetNanos = add(resetNanos, resets, System.nanoTime() - t);
                        resetBytes += answer.getBytes(StandardCharsets.UTF_8).length;
                        resets++;
                        if (!answer.startsWith("{\"type\":\"observation\"")) error("reset: " + answer);
                        continue;
                    }
                    boolean last = action[s] == ep.actions().size() - 1;
                    String message = "{\"type\":\"step\",\"data\":" + new String(ep.actions().get(action[s]++), StandardCharsets.UTF_8) + "}";
                    long t = System.nanoTime();
                    String answer = sessions.get(s).apply(message);
                    stepNanos = add(stepNanos, steps, System.nanoTime() - t);
                    stepBytes += answer.getBytes(StandardCharsets.UTF_8).length;
                    steps++;
                    done[s]++;
                    if (!answer.startsWith("{\"type\":\"observation\"")) {
                        error("step: " + answer);
                    } else if (last) {
                        JsonNode data = Json.parse(answer).path("data");
                        if (!(data.path("done").asBoolean() && data.path("reward").asDouble() == 1.0)) {
                            error("task " + ep.taskIndex() + ": the oracle's last action did not end with reward 1: " + answer);
                        }
                    }
                }
                if (errors > 0) break;
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            threadCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            processCpu = process0 < 0 ? -1 : EnvLoadBench.processCpuNanos() - process0;
            jvm = JvmThreadsCpu.read().minus(jvm0);
        }

        private void error(String message) {
            errors++;
            if (errorSamples.size() < 5) errorSamples.add("in-process: " + message);
        }

        private static long[] add(long[] a, long i, long v) {
            long[] out = i == a.length ? Arrays.copyOf(a, a.length * 2) : a;
            out[(int) i] = v;
            return out;
        }

        /** As the bench's reports: the handler's thread is the server, there is no client. */
        EnvLoadBench.Report report(EnvLoadBench.Config c) {
            long[] st = EnvLoadBench.merge(List.of(Arrays.copyOf(stepNanos, (int) steps)));
            long[] rt = EnvLoadBench.merge(List.of(Arrays.copyOf(resetNanos, (int) resets)));
            long requests = steps + resets;
            return new EnvLoadBench.Report(IN_PROCESS, c.sessions(), steps, resets, errors, List.copyOf(errorSamples), seconds,
                    steps / seconds, requests / seconds, EnvLoadBench.pct(st, 0.50), EnvLoadBench.pct(st, 0.99),
                    st.length == 0 ? 0 : st[st.length - 1] / 1e3, EnvLoadBench.pct(rt, 0.50), EnvLoadBench.pct(rt, 0.99), timedOut,
                    Runtime.getRuntime().availableProcessors(), loadBefore,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(),
                    EnvLoadBench.perRequest(processCpu, requests), 0, EnvLoadBench.perRequest(threadCpu, requests),
                    EnvLoadBench.perRequest(threadCpu, steps), EnvLoadBench.perRequest(jvm.jitNanos(), requests),
                    EnvLoadBench.perRequest(jvm.gcNanos(), requests), "the /ws handler on one thread of this process (no sockets)");
        }
    }
}
