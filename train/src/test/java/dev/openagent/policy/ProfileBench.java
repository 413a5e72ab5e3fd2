package dev.openagent.policy;

import dev.openagent.envs.Environments;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

@Tag("benchmark")
class ProfileBench {
    @Test
    void profile() {
        var env = Environments.get("poi");
        Demonstrations demos = new Demonstrations(env, 0, ShiftSampler.of(List.of()), 1);
        PolicyConfig c = PolicyConfig.defaults();
        Policy p = Policy.create(c, Vocabulary.open(), 1);
        List<Policy.Example> ex = new ArrayList<>();
        while (ex.size() < 64 * 6) {
            for (var d : demos.next().steps()) p.target(d.view(), d.action(), d.task()).ifPresent(t -> ex.add(new Policy.Example(d.view(), t, 1f)));
        }
        var opt = ai.djl.training.optimizer.Optimizer.adam().build();
        for (int i = 0; i < 6; i++) {
            List<Policy.Example> b = ex.subList(i * 64, i * 64 + 64);
            var mx = java.lang.management.ManagementFactory.getThreadMXBean(); long c0 = mx.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            var ctx = b.stream().map(x -> Context.encode(x.view(), c, Vocabulary.open())).toList();
            long t1 = System.nanoTime();
            Batch batch = new Batch(ctx, c, Vocabulary.open());
            long t2 = System.nanoTime();
            float loss = p.train(b, opt);
            long t3 = System.nanoTime();
            System.out.printf("cpu %.1f ms; encode %.1f ms  batch %.1f ms  train %.1f ms  L=%d texts=%d loss %.3f%n", (mx.getCurrentThreadCpuTime() - c0) / 1e6, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6, batch.l, batch.texts.size(), loss);
        }
        List<View> views = ex.subList(0, 64).stream().map(Policy.Example::view).toList();
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            p.act(views, null);
            System.out.printf("act64 %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        }
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            p.act(views.subList(0, 1), null);
            System.out.printf("act1 %.1f ms%n", (System.nanoTime() - t0) / 1e6);
        }
    }
}
