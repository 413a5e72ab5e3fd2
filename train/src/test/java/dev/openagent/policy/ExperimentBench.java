package dev.openagent.policy;

import dev.openagent.envs.Environments;
import dev.openagent.episode.Trajectory;
import dev.openagent.report.Transcript;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

class ExperimentBench {
    @Test
    void sft() {
        int steps = Integer.getInteger("exp.steps", 300);
        String out = System.getProperty("exp.out", "/tmp/exp-sft");
        long t0 = System.nanoTime();
        PolicyConfig d = PolicyConfig.defaults();
        int layers = Integer.getInteger("exp.layers", d.layers());
        PolicyConfig c = new PolicyConfig(d.version(), d.dim(), d.heads(), d.ffn(), layers, d.hashSalt(), d.wordBuckets(), d.bagBuckets(),
                d.bagSize(), d.shapeBuckets(), d.historyTurns(), d.maxRequestTokens(), d.maxRulesTokens(), d.maxActionTokens(),
                d.maxObservationTokens(), d.maxToolNameTokens(), d.maxDescriptionTokens(), d.maxParams(), d.maxEnumValues(),
                d.maxSpanTokens(), d.answerWords());
        Trainer.Options o = Trainer.Options.of(Trainer.Method.SFT, "poi", steps, 1).withConfig(c);
        Trainer.Result r = Trainer.train(o, System.out::println);
        System.out.printf("trained in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        Checkpoint.save(r.policy(), Path.of(out), r.info());
        report(r.policy(), 300);
    }

    static void report(Policy p, int n) {
        long t0 = System.nanoTime();
        List<Trajectory> ts = PolicyEval.run(p, "policy", Environments.get("poi"), ShiftStack.NONE, Split.TEST, n, 7);
        System.out.printf("eval %d episodes in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
        Map<String, int[]> byKind = new TreeMap<>();
        for (Trajectory t : ts) {
            int[] c = byKind.computeIfAbsent(t.kind(), k -> new int[2]);
            c[1]++;
            if (t.success()) c[0]++;
        }
        System.out.println(PolicyEval.Figures.of(ts));
        byKind.forEach((k, c) -> System.out.printf("  %-20s %d/%d%n", k, c[0], c[1]));
        int shown = 0;
        for (Trajectory t : ts) {
            if (!t.success() && shown++ < 6) System.out.println(Transcript.render(t, false));
        }
    }
}
