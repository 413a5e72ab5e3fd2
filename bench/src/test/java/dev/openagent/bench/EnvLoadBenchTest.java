package dev.openagent.bench;

import dev.openagent.registry.Catalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The load bench's machinery at a small size (its figures are not asserted: the machine is shared). */
class EnvLoadBenchTest {
    private static final List<EnvLoadBench.Protocol> BOTH = List.of(EnvLoadBench.Protocol.WS, EnvLoadBench.Protocol.HTTP);

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void smallRunOverBothProtocolsCompletesEveryStepWithoutErrors() throws Exception {
        List<EnvLoadBench.Report> reports = EnvLoadBench.run(new Catalog(), new EnvLoadBench.Config(null, "poi", "none", 4, 40, 5, 16,
                Duration.ofSeconds(90), BOTH, false));
        assertEquals(List.of("ws", "http"), reports.stream().map(EnvLoadBench.Report::protocol).toList());
        for (EnvLoadBench.Report r : reports) {
            assertEquals(0, r.errors(), r.protocol() + ": " + r.errorSamples());
            assertFalse(r.timedOut());
            assertEquals(4 * 40, r.steps());
            assertTrue(r.resets() > 4, "episodes were completed and new ones started");
            assertTrue(r.stepP50Us() > 0 && r.stepP99Us() >= r.stepP50Us());
            assertTrue(r.serverCpuUsPerStep() > 0, "the server's CPU per step is measured in process");
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theFloorAnswersTheSameEpisodesInProcessAndOverCannedSockets() throws Exception {
        List<EnvLoadBench.Report> reports = EnvLoadBench.run(new Catalog(), new EnvLoadBench.Config(null, "retail", "none", 4, 40, 5, 16,
                Duration.ofSeconds(90), List.of(EnvLoadBench.Protocol.WS), true));
        assertEquals(List.of("ws", EnvLoadBench.FLOOR_IN_PROCESS, EnvLoadBench.FLOOR_CANNED), reports.stream().map(EnvLoadBench.Report::protocol).toList());
        EnvLoadBench.Report ws = reports.get(0);
        for (EnvLoadBench.Report r : reports) {
            assertEquals(0, r.errors(), r.protocol() + ": " + r.errorSamples());
            assertFalse(r.timedOut());
            assertEquals(4 * 40, r.steps(), r.protocol());
            // Measured (not -1); the process CPU clock may count in scheduler ticks (10 ms), and the canned floor can
            // finish its 160 requests within one, so only the real server's row must read above zero.
            assertTrue(r.cpuUsPerRequest() >= 0, r.protocol());
        }
        assertTrue(ws.cpuUsPerRequest() > 0, "ws");
        assertTrue(reports.get(1).serverCpuUsPerStep() > 0, "the in-process handling is timed on its thread");
        // The same episodes in the same order: as many resets in process as over the WebSocket.
        assertEquals(ws.resets(), reports.get(1).resets());
        assertEquals(ws.resets(), reports.get(2).resets());
        assertEquals(0, reports.get(1).clientCpuUsPerRequest(), "no client in process");
    }

    @Test
    void onlyLoopbackTargets() {
        assertThrows(IllegalArgumentException.class,
                () -> new EnvLoadBench.Config("http://10.1.2.3:8765", "poi", "none", 1, 1, 0, 1, Duration.ofSeconds(1), BOTH, false));
        assertThrows(IllegalArgumentException.class,
                () -> new EnvLoadBench.Config("http://localhost.evil.example:8765", "poi", "none", 1, 1, 0, 1, Duration.ofSeconds(1), BOTH, false));
        assertThrows(IllegalArgumentException.class, () -> EnvLoadBench.Protocol.parse("udp"));
    }
}
