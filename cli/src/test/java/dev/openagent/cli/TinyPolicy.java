package dev.openagent.cli;

import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The tiny SFT policy that cli's tests serve with {@code serve model}: 150 steps on poi, seed 3. Seeded
 * training is bit-identical, so what it solves is fixed; it is trained once per test JVM (the first test
 * that asks), into a fresh folder under target/.
 */
final class TinyPolicy {
    static final String ID = "tiny-sft";

    private TinyPolicy() {}

    private static final class Trained {
        static final Path CHECKPOINT = train();
    }

    /** The checkpoint's folder (named {@value #ID}, the model id it is served under). */
    static Path checkpoint() { return Trained.CHECKPOINT; }

    private static Path train() {
        try {
            Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target")), "tiny-policy").resolve(ID);
            Trainer.Result trained = Trainer.train(Trainer.Options.of(Trainer.Method.SFT, "poi", 150, 3)
                    .withConfig(PolicyConfig.tiny()).withBatch(16, 4e-3f), line -> {});
            try (Policy p = trained.policy()) {
                Checkpoint.save(p, dir, trained.info());
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
