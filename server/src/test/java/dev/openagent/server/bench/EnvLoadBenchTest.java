package dev.openagent.server.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load bench's machinery at a small size (its figures are not asserted: the machine is shared). */
class EnvLoadBenchTest {
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void smallRunCompletesEveryStepWithoutErrors() throws Exception {
        EnvLoadBench.Report r = EnvLoadBench.run(new EnvLoadBench.Config(null, "poi", "none", 4, 40, 5, 16, Duration.ofSeconds(90)));
        assertEquals(0, r.errors(), r.errorSamples().toString());
        assertFalse(r.timedOut());
        assertEquals(4 * 40, r.steps());
        assertTrue(r.resets() > 0, "episodes were completed and new ones started");
        assertTrue(r.stepP50Us() > 0 && r.stepP99Us() >= r.stepP50Us());
    }

    @Test
    void onlyLoopbackTargets() {
        assertThrows(IllegalArgumentException.class,
                () -> new EnvLoadBench.Config("http://10.1.2.3:8765", "poi", "none", 1, 1, 0, 1, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class,
                () -> new EnvLoadBench.Config("http://localhost.evil.example:8765", "poi", "none", 1, 1, 0, 1, Duration.ofSeconds(1)));
    }
}
