package dev.openagent.server.view;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class EtaTest {
    static final Instant T0 = Instant.parse("2026-11-27T22:00:00Z");

    @Test
    void theRateSinceTheStartTimesWhatRemains() {
        // 10 finished in 20 s since 5 were: 2 s each, 30 left
        assertEquals(Duration.ofSeconds(60), Eta.estimate(T0, 5, T0.plusSeconds(20), 15, 30));
    }

    @Test
    void unknownUntilSomethingFinishesAndNoneWhenNothingRemains() {
        assertNull(Eta.estimate(T0, 5, T0.plusSeconds(20), 5, 30));
        assertNull(Eta.estimate(T0, 0, T0.plusSeconds(20), 10, 0));
        assertNull(Eta.estimate(T0, 0, T0, 10, 5));
    }

    @Test
    void readsAsAPersonWould() {
        assertEquals("42 s", Eta.text(Duration.ofSeconds(42)));
        assertEquals("3 min 5 s", Eta.text(Duration.ofSeconds(185)));
        assertEquals("2 h 10 min", Eta.text(Duration.ofMinutes(130)));
        assertEquals("–", Eta.text(null));
    }
}
