package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.AgentSession;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftStack;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Environment throughput on one thread. Times are thread CPU time, so the figures hold on a busy
 * machine. The oracle's actions are recorded once and replayed, which separates the cost of
 * {@code reset} (world and task generation) from the cost of {@code step}.
 */
@Command(name = "bench", description = {"Measure environment steps per second in-process with the oracle, on one thread.",
        "With --shift, compare the cost of a step under each condition of the spec with an unshifted step."})
final class BenchCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Option(names = "--seconds", defaultValue = "5", description = "CPU seconds per measurement (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Mixin
    Options.Episodes episodes = new Options.Episodes(2000);

    @Mixin
    Options.JsonOutput json;

    @Mixin
    Options.Shift shift;

    record Recorded(TaskRequest request, List<Action> actions) {}

    /** Steps per CPU-second of Env.step alone, resets per CPU-second, and end-to-end steps per CPU-second with the oracle. */
    record Figures(double stepsPerSecond, double resetsPerSecond, double endToEndStepsPerSecond, double stepsPerEpisode) {}

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    @Override
    public void run() {
        if (seconds <= 0) throw new Main.UserError("--seconds must be positive");
        Environment environment = env.environment();
        if (!shift.spec().equals("none")) {
            compare(environment);
            return;
        }
        Figures f = measure(environment.create(), episodes.count(), seconds);
        if (json.on) {
            ObjectNode o = Json.object();
            o.put("env", env.id);
            o.put("step_calls_per_cpu_second", Math.round(f.stepsPerSecond()));
            o.put("resets_per_cpu_second", Math.round(f.resetsPerSecond()));
            o.put("end_to_end_steps_per_cpu_second", Math.round(f.endToEndStepsPerSecond()));
            o.put("steps_per_episode", Math.round(f.stepsPerEpisode() * 100) / 100.0);
            json.print(o);
        } else {
            System.out.printf(Locale.ROOT, "%s, one thread, thread CPU time, %d distinct oracle episodes (%.2f steps each):%n",
                    env.id, episodes.count(), f.stepsPerEpisode());
            System.out.printf(Locale.ROOT, "  Env.step          %,12.0f steps/s%n", f.stepsPerSecond());
            System.out.printf(Locale.ROOT, "  Env.reset         %,12.0f resets/s%n", f.resetsPerSecond());
            System.out.printf(Locale.ROOT, "  end to end        %,12.0f steps/s (reset + oracle + step)%n", f.endToEndStepsPerSecond());
        }
    }

    /**
     * The cost of a shifted step against an unshifted one, per condition. In each of five rounds
     * the static environment and every condition are measured back to back, so both see the same
     * machine load; a condition's ratio is the median of its rounds' ratios.
     */
    private void compare(Environment environment) {
        List<ShiftStack> stacks = shift.conditions(environment, false).stacks().stream().filter(s -> !s.isStatic()).toList();
        Env base = environment.create();
        List<Recorded> baseEpisodes = record(base, episodes.count());
        List<Env> envs = new ArrayList<>();
        List<List<Recorded>> recorded = new ArrayList<>();
        for (ShiftStack s : stacks) {
            Env e = s.apply(environment.create());
            envs.add(e);
            recorded.add(record(e, episodes.count()));
        }
        int rounds = 5;
        double slice = Math.max(0.2, seconds / rounds / 2);
        stepCost(base, baseEpisodes, slice);
        for (int i = 0; i < envs.size(); i++) stepCost(envs.get(i), recorded.get(i), slice);
        double[][] ratios = new double[envs.size()][rounds];
        double[] best = new double[envs.size()];
        double bestBase = Double.MAX_VALUE;
        java.util.Arrays.fill(best, Double.MAX_VALUE);
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < envs.size(); i++) {
                double b = stepCost(base, baseEpisodes, slice);
                double c = stepCost(envs.get(i), recorded.get(i), slice);
                bestBase = Math.min(bestBase, b);
                best[i] = Math.min(best[i], c);
                ratios[i][r] = c / b;
            }
        }
        ArrayNode rows = Json.array();
        double worst = 0;
        if (!json.on) {
            System.out.printf(Locale.ROOT, "%s, one thread, thread CPU time inside Env.step, %d rounds against the static environment:%n", env.id, rounds);
            System.out.printf(Locale.ROOT, "  %-50s %10s %10s %14s%n", "condition", "us/step", "x static", "steps/episode");
            System.out.printf(Locale.ROOT, "  %-50s %10.2f %10.2f %14.2f%n", "none", bestBase / 1000, 1.0, stepsPerEpisode(baseEpisodes));
        }
        for (int i = 0; i < stacks.size(); i++) {
            double[] rs = ratios[i].clone();
            java.util.Arrays.sort(rs);
            double ratio = rs[rounds / 2];
            worst = Math.max(worst, ratio);
            ObjectNode o = rows.addObject();
            o.put("shift", stacks.get(i).label());
            o.put("us_per_step", Math.round(best[i] / 10) / 100.0);
            o.put("ratio", Math.round(ratio * 100) / 100.0);
            o.put("steps_per_episode", Math.round(100 * stepsPerEpisode(recorded.get(i))) / 100.0);
            if (!json.on) {
                System.out.printf(Locale.ROOT, "  %-50s %10.2f %10.2f %14.2f%n", stacks.get(i).label(), best[i] / 1000, ratio,
                        stepsPerEpisode(recorded.get(i)));
            }
        }
        if (json.on) {
            ObjectNode out = Json.object();
            out.put("env", env.id);
            out.put("static_us_per_step", Math.round(bestBase / 10) / 100.0);
            out.put("max_ratio", Math.round(worst * 100) / 100.0);
            out.set("shifted", rows);
            json.print(out);
        } else {
            System.out.printf(Locale.ROOT, "  worst ratio %.2f%n", worst);
        }
    }

    private static double stepsPerEpisode(List<Recorded> recorded) {
        return (double) recorded.stream().mapToLong(r -> r.actions().size()).sum() / recorded.size();
    }

    /**
     * CPU nanoseconds per Env.step, timed directly: the clock is read around each episode's steps
     * (not its reset), so the figure is positive at any budget. An earlier version subtracted a
     * separately measured reset cost from the replay time, which went negative at small budgets.
     */
    private static double stepCost(Env env, List<Recorded> recorded, double seconds) {
        double[] replay = timeReplay(env, recorded, seconds, true);
        return replay[3] / replay[2];
    }

    static Figures measure(Env env, int episodes, double seconds) {
        List<Recorded> recorded = record(env, episodes);
        long totalSteps = recorded.stream().mapToLong(r -> r.actions().size()).sum();
        // Warm up every path before measuring.
        timeOracle(env, recorded, Math.min(1.0, seconds));
        timeReplay(env, recorded, Math.min(1.0, seconds), true);
        double[] oracle = timeOracle(env, recorded, seconds);
        double[] resets = timeReplay(env, recorded, seconds, false);
        double resetCost = resets[0] / resets[1];                      // CPU ns per reset
        double stepCost = stepCost(env, recorded, seconds);            // CPU ns per step
        return new Figures(1e9 / stepCost, 1e9 / resetCost, oracle[2] / (oracle[0] / 1e9), (double) totalSteps / recorded.size());
    }

    private static List<Recorded> record(Env env, int episodes) {
        Split[] splits = Split.values();
        List<Recorded> out = new ArrayList<>(episodes);
        for (int i = 0; i < episodes; i++) {
            TaskRequest request = new TaskRequest(splits[i & 1], 1_000_000L + i, 0);
            out.add(new Recorded(request, oracleActions(env, env.reset(request))));
        }
        return out;
    }

    /** The oracle's actions through the episode {@code env} has just started (the environment is left at its end). */
    static List<Action> oracleActions(Env env, Start start) {
        AgentSession session = new OracleAgent().begin(start, env);
        List<Action> actions = new ArrayList<>();
        Step last = null;
        do {
            Action a = session.act(last);
            actions.add(a);
            last = env.step(a);
        } while (!last.done());
        return List.copyOf(actions);
    }

    /** {cpuNanos, episodes, steps} of running the oracle live. */
    private static double[] timeOracle(Env env, List<Recorded> recorded, double seconds) {
        OracleAgent oracle = new OracleAgent();
        long budget = (long) (seconds * 1e9);
        long start = CPU.getCurrentThreadCpuTime();
        long episodes = 0;
        long steps = 0;
        while (CPU.getCurrentThreadCpuTime() - start < budget) {
            for (Recorded r : recorded) {
                AgentSession session = oracle.begin(env.reset(r.request()), env);
                Step last = null;
                do {
                    last = env.step(session.act(last));
                    steps++;
                } while (!last.done());
                episodes++;
            }
        }
        return new double[]{CPU.getCurrentThreadCpuTime() - start, episodes, steps};
    }

    /**
     * {cpuNanos, episodes, steps, stepCpuNanos} of resetting and (if {@code steps}) replaying the
     * recorded actions; stepCpuNanos is the thread CPU time spent inside the step loops alone.
     */
    private static double[] timeReplay(Env env, List<Recorded> recorded, double seconds, boolean withSteps) {
        long budget = (long) (seconds * 1e9);
        long start = CPU.getCurrentThreadCpuTime();
        long episodes = 0;
        long steps = 0;
        long stepNanos = 0;
        long sink = 0;
        while (CPU.getCurrentThreadCpuTime() - start < budget) {
            for (Recorded r : recorded) {
                sink += env.reset(r.request()).query().length();
                if (withSteps) {
                    long before = CPU.getCurrentThreadCpuTime();
                    for (Action a : r.actions()) {
                        sink += env.step(a).observations().size();
                        steps++;
                    }
                    stepNanos += CPU.getCurrentThreadCpuTime() - before;
                }
                episodes++;
            }
        }
        if (sink == 42) System.out.print("");   // keeps the work observable to the JIT
        return new double[]{CPU.getCurrentThreadCpuTime() - start, episodes, steps, stepNanos};
    }
}
