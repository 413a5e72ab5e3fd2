package dev.openagent.run;

import dev.openagent.episode.InfrastructureException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunControlTest {
    @Test
    void theRequestBudgetAdmitsExactlyItsRequestsAcrossThreads() {
        RunControl c = new RunControl(100, 0);
        AtomicInteger admitted = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 500; i++) {
                pool.submit(() -> {
                    try {
                        c.beforeRequest();
                        admitted.incrementAndGet();
                    } catch (InfrastructureException expected) {
                        // over budget
                    }
                });
            }
        }
        assertEquals(100, admitted.get());
        assertEquals(100, c.requests());
        assertTrue(c.stopReason().contains("request budget of 100"));
    }

    @Test
    void theTokenBudgetStopsTheRunOnceSpent() {
        RunControl c = new RunControl(0, 1000);
        c.beforeRequest();
        c.spent(600, 300);
        assertFalse(c.stopped());
        c.beforeRequest();
        c.spent(90, 10);
        assertTrue(c.stopped());
        assertThrows(InfrastructureException.class, c::beforeRequest);
        assertEquals(1000, c.tokens());
    }

    @Test
    void theFirstStopReasonIsKept() {
        RunControl c = RunControl.unlimited();
        c.stop("HTTP 401");
        c.stop("later");
        assertEquals("HTTP 401", c.stopReason());
    }
}
