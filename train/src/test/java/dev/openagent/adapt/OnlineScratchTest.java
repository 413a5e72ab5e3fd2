package dev.openagent.adapt;

import dev.openagent.curve.CurveSink;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;
import dev.openagent.sandbox.Split;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;
import java.nio.file.*;

class OnlineScratchTest {
    @Test
    void scan() throws Exception {
        Path start = Path.of("/tmp/online-tiny");
        if (!Files.exists(start.resolve("weights.bin"))) {
            Trainer.Result warm = Trainer.train(Trainer.Options.of(Trainer.Method.SFT, "poi", 150, 3)
                    .withConfig(PolicyConfig.tiny()).withBatch(16, 4e-3f), line -> {});
            try (Policy p = warm.policy()) { Checkpoint.save(p, start, warm.info()); }
        }
        int groups = Integer.getInteger("scan.groups", 20);
        int size = Integer.getInteger("scan.size", 32);
        float lr = Float.parseFloat(System.getProperty("scan.lr", "1e-3"));
        for (String shift : System.getProperty("scan.shifts").split(",")) {
            for (String seed : System.getProperty("scan.seeds", "1,2,3,4").split(",")) {
                Path out = Files.createTempDirectory("scan");
                var s = new OnlineAdaptation.Settings(start, "poi", ShiftSpec.parseStack(shift), Split.TEST, 1, groups, size, 1, lr, Long.parseLong(seed), "scan");
                OnlineAdaptation.Result r = OnlineAdaptation.run(s, out, CurveSink.NONE, line -> {}, Integer.MAX_VALUE);
                double first = r.meanSuccess(1, 5), last = r.meanSuccess(groups - 4, groups);
                StringBuilder c = new StringBuilder();
                r.points().forEach(p -> c.append(String.format(" %.2f", p.success().value())));
                System.out.printf("SCAN %s seed=%s groups=%d size=%d lr=%s first=%.3f last=%.3f rise=%+.3f |%s%n", shift, seed, groups, size, lr, first, last, last - first, c);
            }
        }
    }
}
