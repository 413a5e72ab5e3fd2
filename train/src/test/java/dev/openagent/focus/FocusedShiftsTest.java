package dev.openagent.focus;

import dev.openagent.frontier.Focus;
import dev.openagent.policy.ShiftSampler;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FocusedShiftsTest {
    static final Focus FOCUS = new Focus(Focus.VERSION, "policy:sft", 0.1, List.of(
            new Focus.Entry("poi", "query.noise:severity=2", List.of(2, 3), 3.0, 0.4),
            new Focus.Entry("poi", "obs.format:format=xml,severity=1", List.of(1, 2, 3), 1.0, 0.3),
            new Focus.Entry("poi", "tool.distractors:severity=3+tool.name-noise:severity=3", List.of(), 1.0, 0.2),
            new Focus.Entry("poi", "domain.transfer", List.of(), 1.0, 0.9),
            new Focus.Entry("medical", "query.paraphrase:severity=1", List.of(1, 2, 3), 1.0, 0.5)));

    /** Draws only the focus's entries for the environment, at their weights, their severities from the entry's, other parameters kept. */
    @Test
    void drawsTheEntriesAtTheirWeightsAndSeverities() {
        ShiftSampler s = FocusedShifts.sampler(FOCUS, "poi");
        assertEquals(3, s.draws().size(), "poi's entries, domain.transfer left out");
        assertEquals(0.6, s.weights().get("query.noise:severity=2|3"), 1e-4);
        Map<String, Integer> counts = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 5000; i++) {
            ShiftStack stack = s.sample(rnd);
            counts.merge(stack.label(), 1, Integer::sum);
            for (ShiftStack.Layer l : stack.layers()) {
                switch (l.shift().id()) {
                    case "query.noise" -> assertTrue(List.of("2", "3").contains(l.params().get("severity")), stack.label());
                    case "obs.format" -> assertEquals("xml", l.params().get("format"), stack.label());
                    case "tool.distractors", "tool.name-noise" -> assertEquals("3", l.params().get("severity"), stack.label());
                    default -> throw new AssertionError("drawn outside the focus: " + stack.label());
                }
            }
        }
        int noise = counts.getOrDefault("query.noise", 0) + counts.getOrDefault("query.noise:severity=3", 0);
        assertEquals(0.6, noise / 5000.0, 0.03, counts.toString());
        assertEquals(0.2, counts.getOrDefault("tool.distractors:severity=3+tool.name-noise:severity=3", 0) / 5000.0, 0.03, counts.toString());
        assertTrue(counts.containsKey("obs.format:format=xml,severity=1") && counts.containsKey("obs.format:format=xml,severity=3"), counts.toString());
    }

    @Test
    void aFocusWithNothingForTheEnvironmentIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FocusedShifts.sampler(FOCUS, "retail"));
        assertTrue(e.getMessage().contains("nothing to train on for retail"), e.getMessage());
    }
}
