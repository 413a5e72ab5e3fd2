package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.OracleAgent;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.openagent.envs.Environments;
import dev.openagent.run.Conditions;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftStack;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

@Command(name = "bench", description = "Measure environment steps per second in-process with the oracle, on one thread.")
final class BenchCommand implements Runnable {
    @Option(names = "--env", defaultValue = "poi", description = "Environment id (default: ${DEFAULT-VALUE}).")
    String env;

    @Option(names = "--seconds", defaultValue = "5", description = "Measured seconds after warm-up (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--json", description = "Print one JSON object.")
    boolean json;

    @Option(names = "--shift", defaultValue = "none", description = "Also measure under these shifts (a spec, e.g. all) and compare "
            + "the cost of a shifted step with an unshifted one (default: ${DEFAULT-VALUE}).")
    String shift;

    /** Counts of one timed loop. */
    record Figures(long episodes, long steps, long stepNanos, long totalNanos) {
        double stepsPerSecond() { return steps / (totalNanos / 1e9); }

        double envStepsPerSecond() { return steps / (stepNanos / 1e9); }

        double episodesPerSecond() { return episodes / (totalNanos / 1e9); }

        double nanosPerStep() { return (double) stepNanos / Math.max(1, steps); }
    }

    @Override
    public void run() {
        if (seconds <= 0) throw new Main.UserError("--seconds must be positive");
        Environment environment = Environments.get(env);
        Env e = environment.create();
        measure(e, Math.min(2.0, seconds), 0);
        if (!shift.equals("none")) {
            compare(environment);
            return;
        }
        Figures f = measure(e, seconds, 1_000_000);
        if (json) {
            ObjectNode o = Json.object();
            o.put("env", env);
            o.put("episodes", f.episodes());
            o.put("steps", f.steps());
            o.put("steps_per_second", Math.round(f.stepsPerSecond()));
            o.put("env_step_calls_per_second", Math.round(f.envStepsPerSecond()));
            o.put("episodes_per_second", Math.round(f.episodesPerSecond()));
            System.out.println(Json.pretty(o));
        } else {
            System.out.printf(Locale.ROOT, "%s, oracle, one thread, %.1f s:%n", env, f.totalNanos() / 1e9);
            System.out.printf(Locale.ROOT, "  %,.0f steps/s end to end (reset + oracle + step), %,.0f episodes/s%n",
                    f.stepsPerSecond(), f.episodesPerSecond());
            System.out.printf(Locale.ROOT, "  %,.0f steps/s counting only time inside Env.step%n", f.envStepsPerSecond());
        }
    }

    /**
     * The cost of a shifted step against the unshifted one, per condition. Every condition is
     * warmed up first; then in each of five rounds the static environment and each condition are
     * measured back to back on the same tasks, so both see the same machine load. A condition's
     * ratio is the median of its rounds' ratios; its cost the best round.
     */
    private void compare(Environment environment) {
        Conditions conditions = Conditions.of(shift, environment, false);
        List<ShiftStack> stacks = new ArrayList<>(conditions.stacks());
        Env base = environment.create();
        List<Env> envs = new ArrayList<>();
        stacks.forEach(st -> envs.add(st.apply(environment.create())));
        measure(base, 0.5, 0);
        for (Env e : envs) measure(e, 0.3, 0);
        int rounds = 5;
        double slice = seconds / rounds / 2;
        double bestBase = Double.MAX_VALUE;
        double[] best = new double[envs.size()];
        double[][] ratios = new double[envs.size()][rounds];
        double[] stepsPerEpisode = new double[envs.size()];
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < envs.size(); i++) {
                double b = measure(base, slice, 1_000_000, true).nanosPerStep();
                Figures f = measure(envs.get(i), slice, 1_000_000, true);
                bestBase = Math.min(bestBase, b);
                best[i] = Math.min(best[i], f.nanosPerStep());
                ratios[i][r] = f.nanosPerStep() / b;
                stepsPerEpisode[i] = (double) f.steps() / f.episodes();
            }
        }
        ArrayNode rows = Json.array();
        if (!json) {
            System.out.printf(Locale.ROOT, "%s, oracle, one thread, %d rounds of %.1f s against the static environment: CPU time inside Env.step%n",
                    env, rounds, slice);
            System.out.printf(Locale.ROOT, "  %-50s %10s %10s %14s%n", "condition", "us/step", "x static", "steps/episode");
            System.out.printf(Locale.ROOT, "  %-50s %10.1f %10.2f%n", "none", bestBase / 1000, 1.0);
        }
        double worst = 0;
        for (int i = 0; i < stacks.size(); i++) {
            double[] rs = ratios[i].clone();
            java.util.Arrays.sort(rs);
            double ratio = rs[rounds / 2];
            worst = Math.max(worst, ratio);
            ObjectNode o = rows.addObject();
            o.put("shift", stacks.get(i).label());
            o.put("us_per_step", Math.round(best[i] / 100) / 10.0);
            o.put("ratio", Math.round(ratio * 100) / 100.0);
            o.put("steps_per_episode", Math.round(100 * stepsPerEpisode[i]) / 100.0);
            if (!json) {
                System.out.printf(Locale.ROOT, "  %-50s %10.1f %10.2f %14.2f%n", stacks.get(i).label(), best[i] / 1000, ratio, stepsPerEpisode[i]);
            }
        }
        if (json) {
            ObjectNode out = Json.object();
            out.put("env", env);
            out.put("static_us_per_step", Math.round(bestBase / 100) / 10.0);
            out.put("max_ratio", Math.round(worst * 100) / 100.0);
            out.set("shifted", rows);
            System.out.println(Json.pretty(out));
        } else {
            System.out.printf(Locale.ROOT, "  worst ratio %.2f (thread CPU time; still noisy when the machine is busy)%n", worst);
        }
    }

    static Figures measure(Env env, double seconds, long seedBase) {
        return measure(env, seconds, seedBase, false);
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** With {@code cpu}, step time is this thread's CPU time (less disturbed by other processes than wall-clock time). */
    static Figures measure(Env env, double seconds, long seedBase, boolean cpu) {
        OracleAgent oracle = new OracleAgent();
        long deadline = System.nanoTime() + (long) (seconds * 1e9);
        long start = System.nanoTime();
        long episodes = 0;
        long steps = 0;
        long stepNanos = 0;
        Split[] splits = Split.values();
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 64; i++) {
                long seed = seedBase + episodes;
                Start s = env.reset(new TaskRequest(splits[(int) (episodes & 1)], seed, 0));
                AgentSession session = oracle.begin(s, env);
                Step last = null;
                do {
                    Action a = session.act(last);
                    long t0 = cpu ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
                    last = env.step(a);
                    stepNanos += (cpu ? THREADS.getCurrentThreadCpuTime() : System.nanoTime()) - t0;
                    steps++;
                } while (!last.done());
                episodes++;
            }
        }
        return new Figures(episodes, steps, stepNanos, System.nanoTime() - start);
    }
}
