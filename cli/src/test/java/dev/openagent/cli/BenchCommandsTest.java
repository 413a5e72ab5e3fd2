package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static dev.openagent.cli.CliTest.assertBad;
import static dev.openagent.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bench-policy and bench-harness: the figures they print agree with the counts and times they measured (no
 * speed is asserted: the machine is shared), and bad input is refused in one line with exit 2.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class BenchCommandsTest {
    @TempDir
    Path dir;

    @Test
    void benchPolicyFiguresAreTheRatiosOfWhatItCounted() {
        CliTest.Result r = run("bench-policy", "--env", "medical", "--episodes", "8", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = r.json();
        assertEquals("medical", o.path("env").asText());
        assertTrue(o.path("parameters").asLong() > 0);
        assertTrue(o.path("runs").size() >= 2, o.toString());
        for (JsonNode run : o.path("runs")) {
            // Batched modes run every episode; one at a time, the slow mode, an eighth of them.
            int episodes = run.path("mode").asText().equals("one episode at a time") ? 1 : 8;
            assertEquals(episodes, run.path("episodes").asInt(), run.toString());
            long actions = run.path("actions").asLong();
            assertTrue(actions >= episodes, "every episode takes at least one action: " + run);
            double seconds = run.path("seconds").asDouble(), cpu = run.path("cpu_seconds").asDouble();
            assertTrue(seconds > 0 && cpu > 0, run.toString());
            assertEquals(Math.round(actions / seconds), run.path("actions_per_second").asLong(), run.toString());
            assertEquals(Math.round(actions / cpu), run.path("actions_per_cpu_second").asLong(), run.toString());
        }
    }

    @Test
    void benchPolicyRefusesBadInput() {
        assertBad(run("bench-policy", "--episodes", "0"), "--episodes must be at least 1");
        assertBad(run("bench-policy", "--env", "atlantis", "--episodes", "2"), "atlantis");
        assertBad(run("bench-policy", "--policy", dir.resolve("nothing").toString(), "--episodes", "2"), "not a policy checkpoint");
        assertEquals(2, run("bench-policy", "--episodes", "many").code());
    }

    @Test
    void benchHarnessFiguresAreTheRatiosOfWhatItCounted() {
        CliTest.Result r = run("bench-harness", "--env", "retail", "--episodes", "12", "--warmup", "0", "--concurrency", "3", "--turns", "4", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = r.json();
        assertEquals("retail", o.path("env").asText());
        assertEquals(3, o.path("concurrency").asInt());
        assertEquals(12, o.path("episodes").asInt());
        assertEquals(12 * 4, o.path("turns").asInt(), "the endpoint answers four turns per episode");
        double seconds = o.path("seconds").asDouble();
        assertTrue(seconds > 0);
        // seconds is printed to the millisecond and the rate was computed before that rounding, so the
        // rate lies between 48 turns over the longest and over the shortest time that prints as `seconds`.
        double tps = o.path("turns_per_second").asDouble();
        double slowest = 48 / (seconds + 0.0005), fastest = 48 / Math.max(1e-9, seconds - 0.0005);
        assertTrue(tps >= slowest - 0.5 && tps <= fastest + 0.5, tps + " turns/s vs 48 turns in " + seconds + " s");
        double cpu = o.path("cpu_seconds").asDouble();
        assertTrue(cpu > 0, o.toString());
        // cpu_seconds is rounded to the millisecond (up to 0.5 ms over 48 turns) and the rate to the microsecond.
        assertEquals(cpu * 1000 / 48, o.path("cpu_ms_per_turn").asDouble(), 0.5 / 48 + 0.0005 + 1e-9, o.toString());
        assertEquals(Runtime.getRuntime().availableProcessors(), o.path("cores").asInt());
    }

    @Test
    void benchHarnessRefusesBadInput() {
        assertBad(run("bench-harness", "--concurrency", "0", "--episodes", "2", "--warmup", "0"), "counts must be positive");
        assertBad(run("bench-harness", "--turns", "0", "--episodes", "2", "--warmup", "0"), "counts must be positive");
        assertBad(run("bench-harness", "--warmup", "-1", "--episodes", "2"), "counts must be positive");
        assertBad(run("bench-harness", "--episodes", "0", "--warmup", "0"), "--episodes must be at least 1");
        assertBad(run("bench-harness", "--env", "atlantis", "--episodes", "2", "--warmup", "0"), "atlantis");
    }
}
