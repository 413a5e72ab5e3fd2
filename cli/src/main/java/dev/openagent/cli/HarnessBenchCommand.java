package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.agent.openai.RetryPolicy;
import dev.openagent.json.Json;
import dev.openagent.run.AgentSpec;
import dev.openagent.run.EvalAgent;
import dev.openagent.run.EvalRunner;
import dev.openagent.run.Experiment;
import dev.openagent.run.Progress;
import dev.openagent.run.RunControl;
import dev.openagent.store.ResultStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

@Command(name = "bench-harness", mixinStandardHelpOptions = true, description = {"Measure the eval harness in agent turns per second.",
        "The openai agent, the runner and the results store against a zero-latency endpoint on 127.0.0.1",
        "(in this process, so it shares the CPU)."})
final class HarnessBenchCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Option(names = "--concurrency", defaultValue = "64", description = "Episodes in flight (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Mixin
    Options.Episodes episodes = new Options.Episodes(3000);

    @Option(names = "--warmup", defaultValue = "2000", description = "Warm-up episodes, not measured (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--turns", defaultValue = "10", description = "Agent turns per episode (default: ${DEFAULT-VALUE}).")
    int turns;

    @Mixin
    Options.JsonOutput json;

    @Override
    public void run() {
        if (concurrency < 1 || episodes.count() < 1 || warmup < 0 || turns < 1) throw new Main.UserError("counts must be positive");
        Path dir;
        try {
            dir = Files.createTempDirectory("openagent-bench-harness");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (BenchEndpoint server = new BenchEndpoint(turns);
             ResultStore store = ResultStore.open(dir.resolve("bench.db"))) {
            RunControl control = RunControl.unlimited();
            OpenAiConfig config = OpenAiConfig.of(server.baseUrl(), "bench").withRetry(RetryPolicy.DEFAULT.withMaxRetries(0));
            try (ChatEndpoint endpoint = new ChatEndpoint(config, store, true, control, ChatEndpoint.Sleeper.REAL)) {
                OpenAiAgent agent = new OpenAiAgent(endpoint);
                List<EvalAgent> agents = List.of(new EvalAgent(config.label(), config.identity(), agent::forTrial));
                EvalRunner runner = new EvalRunner(env.catalog(), store, control, Progress.NONE);
                if (warmup > 0) runner.run(experiment(warmup, 1_000_003L), agents);
                long cpu0 = processCpuNanos();
                long t0 = System.nanoTime();
                EvalRunner.RunResult r = runner.run(experiment(episodes.count(), 1L), agents);
                double secs = (System.nanoTime() - t0) / 1e9;
                double cpuSecs = (processCpuNanos() - cpu0) / 1e9;
                if (r.errors() > 0) throw new IllegalStateException(r.errors() + " episodes failed during the benchmark: " + r.stopReason());
                // Turns the agent took (a few tasks repeat an earlier request exactly and are answered from the cache).
                long turnsDone = store.episodes(r.runId()).stream().mapToLong(e -> e.stats().turns()).sum();
                report(turnsDone, r.ran(), secs, cpuSecs);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private Experiment experiment(int tasks, long seed) {
        return new Experiment("bench-harness", List.of(AgentSpec.of("openai")), List.of(env.environment().id()), List.of("none"), tasks, 1, seed,
                "test", 0, concurrency, Experiment.Budget.NONE);
    }

    /** CPU time of this process (all threads, the endpoint's included), or -1 where the JVM cannot tell. */
    static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : -1;
    }

    private void report(long turnsDone, int episodesDone, double secs, double cpuSecs) {
        double tps = turnsDone / secs;
        int cores = Runtime.getRuntime().availableProcessors();
        // On a shared machine wall-clock throughput reflects the neighbours; CPU time spent per turn does not.
        double cpuMsPerTurn = cpuSecs > 0 ? cpuSecs * 1000 / turnsDone : Double.NaN;
        double dedicated = cpuSecs > 0 ? turnsDone / (cpuSecs / cores) : Double.NaN;
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("env", env.id);
            o.put("concurrency", concurrency);
            o.put("episodes", episodesDone);
            o.put("turns", turnsDone);
            o.put("seconds", Math.round(secs * 1000) / 1000.0);
            o.put("turns_per_second", Math.round(tps));
            o.put("episodes_per_second", Math.round(episodesDone / secs));
            o.put("cores", cores);
            o.put("cpu_seconds", Math.round(cpuSecs * 1000) / 1000.0);
            o.put("cpu_ms_per_turn", Math.round(cpuMsPerTurn * 1000) / 1000.0);
            o.put("turns_per_second_if_cores_dedicated", Math.round(dedicated));
            json.print(o);
        } else {
            System.out.printf(Locale.ROOT, "%s, openai agent vs zero-latency local endpoint, concurrency %d, %d cores:%n", env.id, concurrency, cores);
            System.out.printf(Locale.ROOT, "  %,d episodes, %,d turns in %.2f s: %,.0f turns/s, %,.0f episodes/s%n",
                    episodesDone, turnsDone, secs, tps, episodesDone / secs);
            System.out.printf(Locale.ROOT, "  %.3f ms of CPU per turn (endpoint included): %,.0f turns/s if the %d cores were all ours%n",
                    cpuMsPerTurn, dedicated, cores);
            System.out.println("  (the endpoint runs in this process and shares the CPU, so both figures are lower bounds for the harness alone)");
        }
    }

    private static void deleteQuietly(Path dir) {
        org.apache.commons.io.FileUtils.deleteQuietly(dir.toFile()); // a temp directory left behind is harmless
    }

}
