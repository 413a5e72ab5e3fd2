package dev.openagent.bench;

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
 * <li>{@value EnvLoadBench#FLOOR_IN_PROCESS}: the same messages the WebSocket client sends,
 * answered by the {@code /ws} handler on one thread of this process ({@link
 * EnvServer#inProcessSession()}): parsing, the environment's reset and step, building the
 * answer's JSON and its UTF-8 bytes. No socket, framing or thread hand-off. The messages are
 * built before the timed part and the episodes' last answers parsed (for reward 1) after it, so
 * it holds no client work.</li>
 * <li>{@value EnvLoadBench#FLOOR_CANNED}: the same client and requests against {@link
 * CannedWebSocketServer}, which answers at once with fixed frames of the real answers' mean
 * sizes: the sockets, the kernel's loopback TCP and the client, with nothing behind them.</li>
 * </ul>
 * The in-process part runs this build's handler with the server's defaults, also when the bench
 * targets another server ({@code --url}).
 */
final class Floor {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * The in-process part's report and, for the canned server, answers of the real answers' mean sizes.
     *
     * @param resetAnswer an observation message as long as the mean reset answer
     * @param stepAnswer  an observation message as long as the mean step answer, done with reward 1 (what the client checks on an episode's last step)
     */
    record InProcess(EnvLoadBench.Report report, byte[] resetAnswer, byte[] stepAnswer) {}

    private Floor() {}

    /**
     * Runs {@code c.sessions()} in-process sessions round-robin on this thread through the same
     * episodes, in the same order, as the bench's clients (warm-up steps first, not measured),
     * and checks each episode's last answer for reward 1 as they do.
     */
    static InProcess measureInProcess(dev.openagent.registry.Catalog catalog, EnvLoadBench.Config c, List<EnvLoadBench.Episode> episodes,
                                      long deadline) throws IOException {
        EnvServer.Config sc = EnvServer.Config.loopback(false).withCatalog(catalog);
        try (EnvServer server = EnvServer.start(sc.withLimits(Math.max(sc.maxSessions(), 2 * c.sessions()), sc.idleTtl(), sc.maxBodyBytes()))) {
            if (c.warmupSteps() > 0) {
                Run warm = new Run(server, c, episodes, c.warmupSteps());
                warm.go(deadline);
                if (warm.errors() > 0) return new InProcess(warm.report(), new byte[0], new byte[0]);
            }
            Run run = new Run(server, c, episodes, c.stepsPerSession());
            run.go(deadline);
            return new InProcess(run.report(), padded(run.resetBytes / Math.max(1, run.resets), false),
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

    /** One message to send, and whether its answer ends an episode (and must carry reward 1). */
    private record Message(int session, String text, boolean step, boolean last, int taskIndex) {}

    /**
     * One measured pass: each session takes {@code stepsPerSession} steps, one message at a time,
     * round-robin, in the order the bench's clients send them.
     */
    private static final class Run {
        private final EnvLoadBench.Config c;
        private final List<UnaryOperator<String>> sessions = new ArrayList<>();
        private final List<Message> messages;
        private final List<String> errorSamples = new ArrayList<>();
        long steps, resets, stepBytes, resetBytes;
        private long errors;
        private long[] stepNanos = new long[0], resetNanos = new long[0];
        private double seconds, loadBefore;
        private long threadCpu = -1, processCpu = -1;
        private JvmThreadsCpu jvm = new JvmThreadsCpu(-1, -1);
        private boolean timedOut;

        Run(EnvServer server, EnvLoadBench.Config c, List<EnvLoadBench.Episode> episodes, int stepsPerSession) {
            this.c = c;
            for (int s = 0; s < c.sessions(); s++) sessions.add(server.inProcessSession());
            this.messages = schedule(c, episodes, stepsPerSession);
        }

        /** Every message of the pass in sending order: round s sends each unfinished session's next message. */
        private static List<Message> schedule(EnvLoadBench.Config c, List<EnvLoadBench.Episode> episodes, int stepsPerSession) {
            int n = c.sessions();
            List<List<Message>> perSession = new ArrayList<>();
            for (int s = 0; s < n; s++) {
                List<Message> mine = new ArrayList<>();
                int e = EnvLoadBench.firstEpisode(s, episodes.size());
                boolean first = true;
                for (int taken = 0; taken < stepsPerSession; ) {
                    EnvLoadBench.Episode ep = episodes.get(e);
                    mine.add(new Message(s, "{\"type\":\"reset\",\"data\":" + EnvLoadBench.resetData(c, ep, first) + "}", false, false, ep.taskIndex()));
                    first = false;
                    for (int a = 0; a < ep.actions().size() && taken < stepsPerSession; a++, taken++) {
                        mine.add(new Message(s, "{\"type\":\"step\",\"data\":" + new String(ep.actions().get(a), StandardCharsets.UTF_8) + "}",
                                true, a == ep.actions().size() - 1, ep.taskIndex()));
                    }
                    e = EnvLoadBench.nextEpisode(e, n, episodes.size());
                }
                perSession.add(mine);
            }
            List<Message> all = new ArrayList<>();
            for (int i = 0; ; i++) {
                boolean any = false;
                for (List<Message> mine : perSession) {
                    if (i < mine.size()) {
                        all.add(mine.get(i));
                        any = true;
                    }
                }
                if (!any) return all;
            }
        }

        void go(long deadline) {
            boolean threadCpuKnown = THREADS.isCurrentThreadCpuTimeSupported();
            long[] st = new long[messages.size()], rt = new long[messages.size()];
            // Episodes' last answers, checked for reward 1 after the timed part (parsing them is the client's work).
            List<String> lastAnswers = new ArrayList<>();
            List<Message> lastMessages = new ArrayList<>();
            loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
            long t0 = System.nanoTime(), cpu0 = threadCpuKnown ? THREADS.getCurrentThreadCpuTime() : -1;
            long process0 = EnvLoadBench.processCpuNanos();
            JvmThreadsCpu jvm0 = JvmThreadsCpu.read();
            for (Message m : messages) {
                long t = System.nanoTime();
                if (t > deadline) {
                    timedOut = true;
                    break;
                }
                String answer = sessions.get(m.session()).apply(m.text());
                // The server sends UTF-8: encoding is its work, and the bytes are the answer's size.
                int bytes = answer.getBytes(StandardCharsets.UTF_8).length;
                long took = System.nanoTime() - t;
                if (m.step()) {
                    st[(int) steps++] = took;
                    stepBytes += bytes;
                } else {
                    rt[(int) resets++] = took;
                    resetBytes += bytes;
                }
                if (!answer.startsWith("{\"type\":\"observation\"")) {
                    error((m.step() ? "step: " : "reset: ") + answer);
                } else if (m.last()) {
                    lastAnswers.add(answer);
                    lastMessages.add(m);
                }
            }
            seconds = (System.nanoTime() - t0) / 1e9;
            if (threadCpuKnown) threadCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            if (process0 >= 0) processCpu = EnvLoadBench.processCpuNanos() - process0;
            jvm = JvmThreadsCpu.read().minus(jvm0);
            for (int i = 0; i < lastAnswers.size(); i++) {
                if (!EnvLoadBench.solved(Json.parse(lastAnswers.get(i)).path("data"))) {
                    error("task " + lastMessages.get(i).taskIndex() + ": the oracle's last action did not end with reward 1: " + lastAnswers.get(i));
                }
            }
            if (timedOut) error("stopped at the time limit after " + steps + " steps");
            stepNanos = Arrays.copyOf(st, (int) steps);
            resetNanos = Arrays.copyOf(rt, (int) resets);
            Arrays.sort(stepNanos);
            Arrays.sort(resetNanos);
        }

        long errors() { return errors; }

        private void error(String message) {
            errors++;
            if (errorSamples.size() < 5) errorSamples.add("in-process: " + message);
        }

        /** As the bench's reports: the handler's thread is the server, and there is no client. */
        EnvLoadBench.Report report() {
            return EnvLoadBench.report(EnvLoadBench.FLOOR_IN_PROCESS, c.sessions(), steps, resets, errors, errorSamples, seconds,
                    stepNanos, resetNanos, timedOut, loadBefore, processCpu, 0, threadCpu, jvm,
                    "the /ws handler on one thread of this process (no sockets)");
        }
    }
}
