package dev.openagent.store;

import java.util.List;

/**
 * What a frontier search decided, as the store keeps it (tables {@code frontier_shifts} and {@code frontier_tests}):
 * where each shift's ladder ended, and every paired test the search ran, rungs and compositions. Written whole when
 * the search ends (and again, the same, when a rerun continues it); {@code openagent view} charts it.
 *
 * @param shifts each shift's frontier, in the search's order
 * @param tests  every test: each shift's rungs weakest first, in the order of {@code shifts}, then the compositions
 */
public record FrontierVerdicts(List<Shift> shifts, List<Test> tests) {
    public FrontierVerdicts {
        shifts = List.copyOf(shifts);
        tests = List.copyOf(tests);
    }

    /**
     * One shift's frontier.
     *
     * @param status           {@code breaks}, {@code holds} (at the strongest severity) or {@code unknown} (the budget
     *                         ran out first)
     * @param breakingSeverity the weakest severity that broke the agent, or null
     * @param severities       the ladder's severities, tested or not (empty: the shift has none)
     */
    public record Shift(String env, String shift, String tier, String status, Integer breakingSeverity, List<Integer> severities) {
        public Shift {
            severities = List.copyOf(severities);
        }
    }

    /**
     * One paired test: a condition against static on the same tasks.
     *
     * @param shift     the shift whose ladder it is a rung of, or null for a composition
     * @param condition the condition as eval labels it (a rung: the shift at its severity; a composition: its layers)
     * @param severity  the rung's severity (a composition's: its layers' highest)
     * @param verdict   {@code breaks} or {@code holds}
     * @param decided   whether the confidence sequence reached the verdict (else the estimate did, at the cap or budget)
     * @param episodes  tasks run both ways
     * @param drop      static success minus shifted success on those tasks
     * @param low       the drop's confidence-sequence interval, lower end
     * @param high      its upper end
     */
    public record Test(String env, String shift, String condition, int severity, String verdict, boolean decided, int episodes,
                       int shiftedSuccesses, int staticSuccesses, double drop, double low, double high) {
        public boolean composition() { return shift == null; }

        public boolean breaks() { return verdict.equals("breaks"); }
    }

    /** The rungs of one shift's ladder, weakest first. */
    public List<Test> rungs(Shift s) {
        return tests.stream().filter(t -> s.shift().equals(t.shift()) && s.env().equals(t.env())).toList();
    }

    /** The compositions of surviving shifts tried. */
    public List<Test> compositions() {
        return tests.stream().filter(Test::composition).toList();
    }
}
