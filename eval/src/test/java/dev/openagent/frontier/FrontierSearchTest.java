package dev.openagent.frontier;

import dev.openagent.sandbox.Seeds;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FrontierSearchTest {
    static final String ENV = "poi";

    /**
     * A simulated agent: it solves a task static with probability 0.95, and under a condition loses a solved task with
     * the condition's probability (0 for any condition not listed); every outcome is a fixed function of the task and
     * condition, as a deterministic agent's is.
     */
    record Agent(Map<String, Double> losses) {
        boolean succeeds(FrontierSearch.Cell c) {
            boolean solved = unit(Seeds.mix(7, c.task())) < 0.95;
            if (c.stack().isStatic()) return solved;
            double loss = losses.getOrDefault(c.stack().label(), 0.0);
            return solved && unit(Seeds.mix(c.stack().label().hashCode(), c.task())) >= loss;
        }

        static double unit(long bits) { return (bits >>> 11) * 0x1.0p-53; }
    }

    /** Runs cells on the agent, remembering every cell asked for (the store) and what each call asked. */
    static final class Runner implements FrontierSearch.Runner {
        final Agent agent;
        final Map<FrontierSearch.Cell, Boolean> store;
        final List<List<FrontierSearch.Cell>> calls = new ArrayList<>();
        /** Calls answered before this runner fails (stops) one, and how: drops cells (infrastructure errors) or stops. */
        int failAfter = Integer.MAX_VALUE;
        boolean dropInstead;

        Runner(Agent agent, Map<FrontierSearch.Cell, Boolean> store) {
            this.agent = agent;
            this.store = store;
        }

        @Override
        public FrontierSearch.Outcomes run(List<FrontierSearch.Cell> cells) {
            calls.add(cells);
            Map<FrontierSearch.Cell, Boolean> out = new LinkedHashMap<>();
            boolean failing = calls.size() > failAfter;
            for (int i = 0; i < cells.size(); i++) {
                FrontierSearch.Cell c = cells.get(i);
                if (failing && i >= cells.size() / 2) {
                    if (dropInstead) continue;                  // an infrastructure error: no score
                    return new FrontierSearch.Outcomes(out, "killed");
                }
                out.put(c, store.computeIfAbsent(c, agent::succeeds));
            }
            return new FrontierSearch.Outcomes(out, null);
        }

        List<String> labelsAsked() {
            return calls.stream().flatMap(List::stream).map(c -> c.stack().label()).distinct().toList();
        }

        int episodes() { return calls.stream().mapToInt(List::size).sum(); }
    }

    static final Agent AGENT = new Agent(Map.of(
            "query.noise", 0.6, "query.noise:severity=3", 0.9,        // holds at 1, breaks at 2
            "logic.inversion", 1.0,                                  // no severities: breaks
            "tool.distractors:severity=3+tool.name-noise:severity=3", 0.7));    // two survivors that break it together

    static Frontier search(FrontierSearch.Settings s, Runner runner) {
        List<Ladder> ladders = Ladder.of("query.noise;tool.name-noise;logic.inversion;tool.distractors", ENV);
        return new FrontierSearch(s, Map.of(ENV, ladders), (env, stack) -> Optional.empty(), runner, null).run(List.of());
    }

    static Frontier.ShiftResult shift(Frontier f, String name) {
        return f.shifts().stream().filter(x -> x.shift().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void eachShiftEndsAtItsWeakestBreakingSeverityAndStrongerOnesNeverRun() {
        Runner runner = new Runner(AGENT, new HashMap<>());
        Frontier f = search(FrontierSearch.Settings.of(0.1, 0.95, 5000, 200), runner);
        assertTrue(f.complete());

        Frontier.ShiftResult noise = shift(f, "query.noise");
        assertEquals(Frontier.Status.BREAKS, noise.status());
        assertEquals(2, noise.breakingLevel());
        assertTrue(noise.decided());
        assertEquals(List.of(1, 2), noise.rungs().stream().map(Frontier.Test::level).toList());
        assertFalse(runner.labelsAsked().contains("query.noise:severity=3"), "a shift broken at 2 is not run at 3");

        Frontier.ShiftResult names = shift(f, "tool.name-noise");
        assertEquals(Frontier.Status.HOLDS, names.status());
        assertNull(names.breakingLevel());
        assertEquals(List.of(1, 2, 3), names.rungs().stream().map(Frontier.Test::level).toList());

        Frontier.ShiftResult inversion = shift(f, "logic.inversion");
        assertEquals(1, inversion.breakingLevel());
        assertFalse(inversion.severity());

        // Survivors composed: the pair that breaks the agent is found; every composition tried is of survivors only.
        assertTrue(f.compositions().stream().anyMatch(t -> t.breaks() && t.label().equals("tool.distractors:severity=3+tool.name-noise:severity=3")),
                f.compositions().toString());
        assertTrue(f.compositions().stream().noneMatch(t -> t.label().contains("query.noise") || t.label().contains("logic.inversion")));

        assertEquals(runner.episodes(), f.spent(), "every episode asked for is counted once");
        assertTrue(runner.calls.stream().flatMap(List::stream).distinct().count() == f.spent(), "no episode is asked for twice");
        // The static episodes are shared: no more of them than the longest test.
        int longest = f.shifts().stream().flatMap(x -> x.rungs().stream()).mapToInt(Frontier.Test::pairs).max().orElse(0);
        assertEquals(Math.max(longest, f.compositions().stream().mapToInt(Frontier.Test::pairs).max().orElse(0)), f.statics().getFirst().tasks());
    }

    @Test
    void theBudgetIsNeverExceededAndLaddersItCutsAreUnknown() {
        Runner runner = new Runner(AGENT, new HashMap<>());
        Frontier f = search(FrontierSearch.Settings.of(0.1, 0.95, 120, 200), runner);
        assertTrue(f.spent() <= 120, "spent " + f.spent());
        assertEquals(runner.episodes(), f.spent());
        assertEquals(1, shift(f, "logic.inversion").breakingLevel(), "what the budget allowed is still decided");
        assertEquals(Frontier.Status.UNKNOWN, shift(f, "tool.name-noise").status());
        assertTrue(f.compositions().isEmpty());
    }

    /**
     * A search stopped mid-way (killed, or episodes left without a score) and rerun over what it stored ends exactly as
     * an uninterrupted one, asking for no episode twice; unscored episodes never count as failures.
     */
    @Test
    void aStoppedSearchRerunEndsAsAnUninterruptedOne() {
        FrontierSearch.Settings s = FrontierSearch.Settings.of(0.1, 0.95, 5000, 200);
        Frontier whole = search(s, new Runner(AGENT, new HashMap<>()));
        for (boolean drop : List.of(false, true)) {
            Map<FrontierSearch.Cell, Boolean> store = new HashMap<>();
            Runner first = new Runner(AGENT, store);
            first.failAfter = 3;
            first.dropInstead = drop;
            Frontier stopped = search(s, first);
            assertFalse(stopped.complete());
            assertEquals(drop ? "some episodes could not be scored (infrastructure errors)" : "killed", stopped.stopped());
            int stored = store.size();

            Runner second = new Runner(AGENT, store);
            Frontier resumed = search(s, second);
            assertTrue(resumed.complete());
            assertEquals(whole.json(), resumed.json());
            assertTrue(stored > 0 && stored < whole.spent(), "stopped mid-way: " + stored);
            assertEquals(whole.spent(), store.size(), "the rerun ran only what the stopped search had not stored");
        }
    }

    @Test
    void theGridRunsEveryRungToTheCapAndBreaksAtTheWeakestEstimateAboveTheThreshold() {
        Runner runner = new Runner(AGENT, new HashMap<>());
        Frontier g = search(FrontierSearch.Settings.of(0.1, 0.95, 100_000, 60).asGrid(), runner);
        assertTrue(g.complete());
        assertEquals((3 + 3 + 1 + 3) * 60 + 60, g.spent(), "every rung of every shift on 60 tasks, and static");
        assertTrue(g.compositions().isEmpty());
        Frontier.ShiftResult noise = shift(g, "query.noise");
        assertEquals(3, noise.rungs().size());
        assertEquals(2, noise.breakingLevel());
        assertEquals(Frontier.Status.HOLDS, shift(g, "tool.name-noise").status());
    }

    @Test
    void laddersClimbSeveritiesAndAFixedSeverityIsOneRung() {
        Ladder noise = Ladder.of("query.noise", ENV).getFirst();
        assertEquals(List.of("query.noise:severity=1", "query.noise", "query.noise:severity=3"), noise.rungs().stream().map(Ladder.Rung::label).toList());
        Ladder fixed = Ladder.of("query.noise:severity=3", ENV).getFirst();
        assertEquals(1, fixed.rungs().size());
        assertEquals(3, fixed.rungs().getFirst().level());
        Ladder none = Ladder.of("task.unsolvable", ENV).getFirst();
        assertEquals(1, none.rungs().size());
        assertFalse(none.rungs().getFirst().severity());
        Ladder action = Ladder.of("interface.action-list", ENV).getFirst();
        assertEquals(List.of(1, 2, 3), action.rungs().stream().map(Ladder.Rung::level).toList(), "severity 0 is no shift");
        assertTrue(Ladder.of("none", ENV).isEmpty());
        assertEquals(ShiftStack.NONE.label(), "none");
    }
}
