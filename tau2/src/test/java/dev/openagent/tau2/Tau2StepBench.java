package dev.openagent.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Environment steps per second on tau2's gold actions, this environment against tau2's own Python environment, in
 * one run: rounds alternate between the two (each round replays every gold action of all 114 tasks, a fresh episode
 * per task; CPU time of the steps alone, resets timed apart), and the medians are printed with their ratio. A
 * benchmark, not a default test:
 * {@code ./mvnw -pl tau2 -am test -Dexcluded.groups=none -Dtest=Tau2StepBench -Dsurefire.failIfNoSpecifiedTests=false}
 * (needs python3 with pydantic).
 */
@Tag("benchmark")
class Tau2StepBench {
    private static final int ROUNDS = Integer.getInteger("tau2.bench.rounds", 5);
    /** Passes over the 114 tasks per Java round (a pass takes milliseconds; Python's round is one pass). */
    private static final int PASSES = Integer.getInteger("tau2.bench.passes", 20);

    private record Round(long steps, double stepSeconds, long resets, double resetSeconds) {
        double stepsPerSecond() { return steps / stepSeconds; }

        double resetsPerSecond() { return resets / resetSeconds; }
    }

    @Test
    void stepsPerSecondAgainstTau2sPython() throws Exception {
        Tau2Retail env = Checkouts.retail();
        for (int i = 0; i < 3; i++) java(env, PASSES);   // JIT warm-up
        List<Round> ours = new ArrayList<>();
        List<Round> theirs = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) {
            ours.add(java(env, PASSES));
            theirs.add(python());
        }
        double j = median(ours.stream().mapToDouble(Round::stepsPerSecond).toArray());
        double p = median(theirs.stream().mapToDouble(Round::stepsPerSecond).toArray());
        double jr = median(ours.stream().mapToDouble(Round::resetsPerSecond).toArray());
        double pr = median(theirs.stream().mapToDouble(Round::resetsPerSecond).toArray());
        System.out.printf(Locale.ROOT, "tau2 retail gold actions (%d steps over %d tasks per pass), %d alternating rounds, CPU time, median:%n",
                ours.getFirst().steps() / PASSES, env.tasks(Split.TRAIN) + env.tasks(Split.TEST), ROUNDS);
        System.out.printf(Locale.ROOT, "  openagent tau2-retail: %,10.0f steps/s  %,10.0f resets/s  (%d passes per round)%n", j, jr, PASSES);
        System.out.printf(Locale.ROOT, "  tau2 (Python %s):  %,10.0f steps/s  %,10.0f resets/s%n", pythonVersion(), p, pr);
        System.out.printf(Locale.ROOT, "  ratio: %.0fx the steps, %.0fx the resets%n", j / p, jr / pr);
        assertTrue(j > 0 && p > 0);
    }

    /** Every gold action of every task, on a fresh episode per task, PASSES times; thread CPU time of steps and resets. */
    private static Round java(Tau2Retail env, int passes) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long steps = 0;
        long resets = 0;
        long stepNanos = 0;
        long resetNanos = 0;
        List<Tau2Retail.Gold> tasks = new ArrayList<>(env.tasks().values());
        List<List<Action>> calls = new ArrayList<>();
        for (Tau2Retail.Gold g : tasks) {
            List<Action> as = new ArrayList<>();
            for (int i = 0; i < g.task().actions().size(); i++) {
                Tau2Task.Action a = g.task().actions().get(i);
                as.add(Action.CallTools.of("call_" + i, a.name(), Json.write(a.arguments())));
            }
            calls.add(as);
        }
        Env e = env.create();
        for (int pass = 0; pass < passes; pass++) {
            for (int t = 0; t < tasks.size(); t++) {
                Tau2Retail.Gold g = tasks.get(t);
                Split split = Split.parse(g.task().split());
                long t0 = cpu.getCurrentThreadCpuTime();
                e.reset(new TaskRequest(split, env.split(split).indexOf(g), 0));
                long t1 = cpu.getCurrentThreadCpuTime();
                for (Action a : calls.get(t)) e.step(a);
                long t2 = cpu.getCurrentThreadCpuTime();
                resetNanos += t1 - t0;
                stepNanos += t2 - t1;
                resets++;
                steps += calls.get(t).size();
            }
        }
        return new Round(steps, stepNanos / 1e9, resets, resetNanos / 1e9);
    }

    /** One pass of tau2_replay.py's bench (tau2's Environment.get_response on the same gold actions). */
    private static Round python() throws Exception {
        java.nio.file.Path err = java.nio.file.Files.createTempFile("tau2-bench", ".err");
        Process p = new ProcessBuilder("python3", "python/tau2_replay.py", "bench", Checkouts.shared().toString(), "--rounds", "1")
                .redirectError(err.toFile()).start();
        byte[] text = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), () -> new String(text) + readQuietly(err));
        JsonNode out = Json.MAPPER.readTree(text);
        return new Round(out.get("steps").asLong(), out.get("step_cpu_seconds").asDouble(), out.get("resets").asLong(), out.get("reset_cpu_seconds").asDouble());
    }

    private static String readQuietly(java.nio.file.Path p) {
        try {
            return java.nio.file.Files.readString(p);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static String pythonVersion() throws Exception {
        Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
        String v = new String(p.getInputStream().readAllBytes()).strip().replace("Python ", "");
        p.waitFor(1, TimeUnit.MINUTES);
        return v;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
