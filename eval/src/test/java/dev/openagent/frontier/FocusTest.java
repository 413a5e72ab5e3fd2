package dev.openagent.frontier;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The focus a frontier writes: what broke the agent, and the severities to train at. */
class FocusTest {
    static Frontier.Test rung(String label, int level, PairedDrop.Verdict v, double drop) {
        return new Frontier.Test("poi", label, level, v, true, 40, 20, 38, drop, drop - 0.1, drop + 0.1, List.of());
    }

    /**
     * A shift that broke the agent at severity 2 of 1-3 is trained at 2 and 3 (the breaking rung and every stronger
     * one), one that broke it at 1 at 1-3, one without severities at its spec; what held is left out.
     */
    @Test
    void eachBreakIsTrainedAtItsBreakingSeverityAndEveryStrongerOne() {
        var hold = PairedDrop.Verdict.HOLDS;
        var brk = PairedDrop.Verdict.BREAKS;
        List<Frontier.ShiftResult> shifts = List.of(
                new Frontier.ShiftResult("poi", "tool.schema-noise", "tool", List.of(1, 2, 3), true, Frontier.Status.BREAKS,
                        List.of(rung("tool.schema-noise:severity=1", 1, hold, 0.02), rung("tool.schema-noise:severity=2", 2, brk, 0.6))),
                new Frontier.ShiftResult("poi", "query.noise", "query", List.of(1, 2, 3), true, Frontier.Status.BREAKS,
                        List.of(rung("query.noise:severity=1", 1, brk, 0.27))),
                new Frontier.ShiftResult("poi", "obs.missing-values", "observation", List.of(1, 2, 3), true, Frontier.Status.BREAKS,
                        List.of(rung("obs.missing-values:severity=1", 1, hold, 0.0), rung("obs.missing-values:severity=2", 2, hold, 0.05),
                                rung("obs.missing-values:severity=3", 3, brk, 0.3))),
                new Frontier.ShiftResult("poi", "logic.inversion", "logic", List.of(1), false, Frontier.Status.BREAKS,
                        List.of(rung("logic.inversion", 1, brk, 0.5))),
                new Frontier.ShiftResult("poi", "tool.distractors", "tool", List.of(1, 2, 3), true, Frontier.Status.HOLDS,
                        List.of(rung("tool.distractors:severity=3", 3, hold, 0.0))));
        Frontier f = new Frontier(FrontierSearch.Settings.of(0.1, 0.95, 5000, 100), List.of(), shifts,
                List.of(rung("tool.distractors:severity=3+obs.missing-values:severity=3", 3, brk, 0.2)), List.of(), 500, true, null);

        Focus focus = Focus.of(f, "policy:sft");
        assertEquals(5, focus.entries().size(), focus.toString());
        assertEquals(new Focus.Entry("poi", "tool.schema-noise:severity=2", List.of(2, 3), 1.0, 0.6), focus.entries().get(0));
        assertEquals(new Focus.Entry("poi", "query.noise:severity=1", List.of(1, 2, 3), 1.0, 0.27), focus.entries().get(1));
        assertEquals(new Focus.Entry("poi", "obs.missing-values:severity=3", List.of(3), 1.0, 0.3), focus.entries().get(2));
        assertEquals(new Focus.Entry("poi", "logic.inversion", List.of(), 1.0, 0.5), focus.entries().get(3));
        assertEquals(new Focus.Entry("poi", "tool.distractors:severity=3+obs.missing-values:severity=3", List.of(), 1.0, 0.2),
                focus.entries().get(4));
    }
}
