package dev.openagent.study;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StudyProgressTest {
    /** The fraction done is over every planned phase, weighted by its work; the active phases are named. */
    @Test
    void progressCoversEveryPlannedPhase() {
        List<String> out = new ArrayList<>();
        try (StudyProgress p = new StudyProgress.Lines(out::add, Duration.ZERO)) {
            // Duration.ZERO: a line at every step, so this test sees them.
            StudyProgress.Phase train = p.phase("train sft", 3, 300);
            StudyProgress.Phase eval = p.phase("evaluate sft", 1, 100);
            assertEquals(0, p.fraction());
            train.advanceTo(150);
            assertEquals(0.375, p.fraction(), 1e-9);
            assertEquals("train sft 150/300", p.active());
            train.done();
            assertTrue(out.getLast().startsWith("progress: 75% of the study, ETA ") && out.getLast().endsWith("; done: train sft"), out.getLast());
            eval.advance(50);
            assertEquals(0.875, p.fraction(), 1e-9);
            assertEquals("evaluate sft 50/100", p.active());
            p.log("a log line");
        }
        assertTrue(out.contains("a log line"), out.toString());
        assertTrue(out.stream().anyMatch(l -> l.startsWith("progress: 38% of the study, ETA ") && l.endsWith("(train sft 150/300)")), out.toString());
    }

    @Test
    void etaScalesElapsedTimeByWhatIsLeft() {
        assertEquals("30s", StudyProgress.eta(0.5, 30_000_000_000L));
        assertEquals("3m00s", StudyProgress.eta(0.25, 60_000_000_000L));
        assertEquals("?", StudyProgress.eta(0, 5_000_000_000L));
    }
}
