package dev.openagent.cli;

import dev.openagent.json.Json;
import dev.openagent.bench.EnvLoadBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

@Command(mixinStandardHelpOptions = true, name = "bench", description = "Load-test `serve env` over loopback: concurrent sessions stepping through oracle episodes over the OpenEnv WebSocket and the HTTP API, one connection each.")
final class ServeBenchCommand implements Runnable {
    @Option(names = "--url", description = "A running `serve env` on loopback (default: start one in this process).")
    String url;

    @Mixin
    Options.Env env;

    @Mixin
    Options.Shift shift;

    @Option(names = "--sessions", defaultValue = "64", description = "Concurrent sessions (default: ${DEFAULT-VALUE}).")
    int sessions;

    @Option(names = "--steps", defaultValue = "1000", description = "Steps per session (default: ${DEFAULT-VALUE}).")
    int steps;

    @Option(names = "--warmup-steps", defaultValue = "300", description = "Steps per session run first, not measured (default: ${DEFAULT-VALUE}).")
    int warmupSteps;

    @Option(names = "--tasks", defaultValue = "512", description = "Distinct tasks the sessions cycle through (default: ${DEFAULT-VALUE}).")
    int tasks;

    @Option(names = "--max-seconds", defaultValue = "300", description = "Stop after this long whatever is left (default: ${DEFAULT-VALUE}).")
    long maxSeconds;

    @Option(names = "--protocol", defaultValue = "both", description = "ws, http, both (measured one after the other) or none (with --floor: the floor alone, on a cold JVM); "
            + "default: ${DEFAULT-VALUE}.")
    String protocol;

    @Option(names = "--floor", description = "Then measure the floor under these figures: the same messages answered in this process "
            + "without sockets, and the same client against canned WebSocket answers (sockets only); their sum is the least CPU a step "
            + "can cost on this machine with this client.")
    boolean floor;

    /** With {@code --json}: a JSON array, one object per protocol (and per part of the floor). */
    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        List<EnvLoadBench.Protocol> protocols = switch (protocol.strip().toLowerCase(Locale.ROOT)) {
            case "both" -> List.of(EnvLoadBench.Protocol.WS, EnvLoadBench.Protocol.HTTP);
            case "none" -> List.of();
            default -> List.of(EnvLoadBench.Protocol.parse(protocol));
        };
        List<EnvLoadBench.Report> reports;
        try {
            reports = EnvLoadBench.run(env.catalog(), new EnvLoadBench.Config(url, env.environment().id(), shift.spec(), sessions, steps, warmupSteps, tasks,
                    Duration.ofSeconds(maxSeconds), protocols, floor));
        } catch (IOException e) {
            throw new UncheckedIOException("load bench failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Main.UserError("interrupted");
        }
        if (json.on) {
            json.print(Json.tree(reports));
        } else {
            reports.forEach(this::print);
            printFloor(reports);
        }
        long errors = reports.stream().mapToLong(EnvLoadBench.Report::errors).sum();
        if (errors > 0) throw new Main.UserError(errors + " errors during the load bench");
    }

    private void print(EnvLoadBench.Report r) {
        String over = switch (r.protocol()) {
            case "ws" -> "the OpenEnv WebSocket /ws";
            case "http" -> "HTTP /reset + /step";
            default -> r.protocol();
        };
        System.out.printf(Locale.ROOT, "serve env load over %s: %d sessions x %d steps (after %d warm-up steps each) against %s%n",
                over, r.sessions(), steps, warmupSteps, r.target());
        System.out.printf(Locale.ROOT, "  steps            %,d in %.2f s (+ %,d resets)%n", r.steps(), r.seconds(), r.resets());
        System.out.printf(Locale.ROOT, "  throughput       %,.0f steps/s (%,.0f requests/s)%n", r.stepsPerSecond(), r.requestsPerSecond());
        System.out.printf(Locale.ROOT, "  step latency     p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", r.stepP50Us() / 1e3, r.stepP99Us() / 1e3, r.stepMaxUs() / 1e3);
        System.out.printf(Locale.ROOT, "  reset latency    p50 %.2f ms, p99 %.2f ms%n", r.resetP50Us() / 1e3, r.resetP99Us() / 1e3);
        System.out.printf(Locale.ROOT, "  errors           %d%s%n", r.errors(), r.timedOut() ? " (time limit reached)" : "");
        r.errorSamples().forEach(e -> System.out.println("    " + e));
        if (r.cpuUsPerRequest() >= 0) {
            System.out.printf(Locale.ROOT, "  CPU per request  %.1f us (this process: %s), i.e. %,.0f requests per CPU-second%n",
                    r.cpuUsPerRequest(), url == null || isFloor(r) ? "client + server" : "client only", 1e6 / r.cpuUsPerRequest());
        }
        if (r.serverCpuUsPerRequest() >= 0) {
            System.out.printf(Locale.ROOT, "    server         %.1f us (request handling), i.e. %,.0f requests/s on %d free cores; %.1f us per step%n",
                    r.serverCpuUsPerRequest(), r.processors() * 1e6 / r.serverCpuUsPerRequest(), r.processors(),
                    r.serverCpuUsPerStep());
        }
        if (r.clientCpuUsPerRequest() >= 0) {
            System.out.printf(Locale.ROOT, "    client         %.1f us (the bench's own threads)%n", r.clientCpuUsPerRequest());
        }
        if (r.jitCpuUsPerRequest() >= 0) {
            System.out.printf(Locale.ROOT, "    JIT + GC       %.1f us + %.1f us (compiler and collector threads; mostly warm-up on a short run)%n",
                    r.jitCpuUsPerRequest(), r.gcCpuUsPerRequest());
        }
        System.out.printf(Locale.ROOT, "  machine          %d processors, load average %.2f before, %.2f after%n",
                r.processors(), r.loadAverageBefore(), r.loadAverageAfter());
    }

    private static boolean isFloor(EnvLoadBench.Report r) {
        return r.protocol().equals(EnvLoadBench.FLOOR_IN_PROCESS) || r.protocol().equals(EnvLoadBench.FLOOR_CANNED);
    }

    /**
     * The floor's sum: everything the in-process part spent per step (the handling and its JIT and
     * GC) plus everything the canned run spent per step (client, sockets, kernel, their JIT).
     * Nothing when either part is missing or failed.
     */
    private static void printFloor(List<EnvLoadBench.Report> reports) {
        EnvLoadBench.Report inProcess = null, canned = null;
        for (EnvLoadBench.Report r : reports) {
            if (r.protocol().equals(EnvLoadBench.FLOOR_IN_PROCESS)) inProcess = r;
            if (r.protocol().equals(EnvLoadBench.FLOOR_CANNED)) canned = r;
        }
        if (inProcess == null || canned == null) return;
        if (inProcess.errors() > 0 || canned.errors() > 0 || inProcess.steps() == 0 || canned.steps() == 0) return;
        if (inProcess.cpuUsPerRequest() < 0 || canned.cpuUsPerRequest() < 0) return;
        double handling = perStep(inProcess), transport = perStep(canned), floor = handling + transport;
        System.out.printf(Locale.ROOT, "floor            %.1f us of CPU per step = %.1f us handling the messages in process + %.1f us "
                + "for the client, sockets and kernel against canned answers (each with its JIT and GC)%n", floor, handling, transport);
        System.out.printf(Locale.ROOT, "                 i.e. at most %,.0f steps/s on %d free cores with this client on the same machine, "
                + "whatever the server%n", canned.processors() * 1e6 / floor, canned.processors());
    }

    /** The whole process's CPU per step, resets counted in. */
    private static double perStep(EnvLoadBench.Report r) {
        return r.cpuUsPerRequest() * (r.steps() + r.resets()) / r.steps();
    }
}
