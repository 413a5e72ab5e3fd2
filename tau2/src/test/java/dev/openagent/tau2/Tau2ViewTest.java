package dev.openagent.tau2;

import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.run.Conditions;
import dev.openagent.run.TaskPlan;
import dev.openagent.run.Validation;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The view check on tau2-retail: every task carried out from what the agent is shown. tau2's gold actions send order
 * ids, item ids and addresses that only a look-up shows; the plans make those look-ups first ({@link Discovery}).
 */
class Tau2ViewTest {
    private static final Tau2Retail ENV = Checkouts.retail();

    @Test
    void theViewSolverSolvesEveryTaskOfBothSplitsFromWhatItIsShown() {
        List<String> failures = new ArrayList<>();
        int episodes = 0;
        for (Split split : Split.values()) {
            for (int i = 0; i < ENV.tasks(split); i++) {
                Trajectory t = Episodes.run(ViewSolver.watched(ShiftStack.NONE, ENV.create()), new ViewSolver(), new TaskRequest(split, i, 0));
                episodes++;
                // The finding names the value that was never shown ("the value '#W4817420' for get_order_details.order_id ...").
                if (!ViewSolver.solved(t)) failures.add(t.taskId() + ": " + Validation.why(t));
            }
        }
        assertEquals(114, episodes);
        assertTrue(failures.isEmpty(), failures.size() + " of 114 tasks not solved from view:\n" + String.join("\n", failures));
    }

    @Test
    void everyIdAPlanSendsComesFromAnEarlierLookup() {
        List<String> wrong = new ArrayList<>();
        int lookups = 0;
        for (Tau2Retail.Gold g : ENV.tasks().values()) {
            List<GoldPlan.Call> calls = g.plan().calls();
            lookups += calls.size() - (int) g.ok().stream().filter(ok -> ok).count();
            for (int i = 0; i < calls.size(); i++) {
                GoldPlan.Call c = calls.get(i);
                for (var p : c.args().properties()) {
                    boolean id = p.getKey().endsWith("_id") && p.getValue().isTextual() && !p.getValue().asText().isEmpty();
                    if (id && !c.refs().containsKey(p.getKey()) && !g.query().contains(p.getValue().asText())) {
                        wrong.add(g.task().id() + ": step " + i + " " + c.tool() + " sends " + p.getKey() + " '" + p.getValue().asText()
                                + "', which neither the request nor an earlier result shows");
                    }
                }
            }
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        // What no look-up shows: one value, which an agent writes from what it knows (the state of "New York").
        Map<String, Set<String>> unseen = new TreeMap<>();
        ENV.tasks().values().stream().filter(g -> !g.unseen().isEmpty()).forEach(g -> unseen.put(g.task().id(), g.unseen()));
        assertEquals(Map.of("22", Set.of("NY")), unseen);
        // The look-ups an agent makes before tau2's gold actions (measured: 214 added to the 532 gold actions that succeed).
        assertTrue(lookups >= 150, lookups + " look-ups added");
    }

    @Test
    void underEveryApplicableShiftTheViewSolverSolvesASeededSampleOfBothSplits() {
        Conditions c = Conditions.of("all", ENV, false);
        List<String> failures = new ArrayList<>();
        for (ShiftStack stack : c.stacks()) {
            for (Split split : Split.values()) {
                Validation.Result r = Validation.run(ENV, stack, new TaskPlan(split, 16, 3, 0), 2, Validation.Solver.VIEW);
                if (!r.passed()) {
                    failures.add(stack.label() + " (" + split.id() + "): " + r.failed() + " of " + r.episodes() + ", e.g. "
                            + String.join("; ", r.failures().stream().map(t -> t.taskId() + ": " + Validation.why(t)).toList()));
                }
            }
        }
        assertEquals(40, c.stacks().size());
        assertTrue(failures.isEmpty(), failures.size() + " conditions failed the view check:\n" + String.join("\n", failures));
    }

    /**
     * Where tau2's results first misled the view solver, on validate's own tasks (seeds 1 and 2): a hold completed
     * by {@code get_order_details} after {@code get_product_details} got the product id as its order id (test/64);
     * an order whose address is "503 Elm Avenue" read as a 503 error, so the next page was never fetched
     * (test/62); and under logic.conflict a payment method's own {@code "source":"paypal"} cut the authoritative
     * source's part short, before the profile's next page token (test/86 with obs.pagination).
     */
    @Test
    void holdsPagesAndSourcesAreReadOnValidatesOwnTasks() {
        List<String> failures = new ArrayList<>();
        for (String shift : List.of("logic.inversion", "obs.pagination", "obs.pagination+logic.conflict")) {
            for (long seed : new long[] {1, 2}) {
                Validation.Result r = Validation.run(ENV, dev.openagent.shift.ShiftSpec.parseStack(shift), new TaskPlan(Split.TEST, 114, seed, 0), 2,
                        Validation.Solver.VIEW);
                if (!r.passed()) {
                    failures.add(shift + " (seed " + seed + "): " + r.failed() + " of " + r.episodes() + ", e.g. "
                            + String.join("; ", r.failures().stream().map(t -> t.taskId() + ": " + Validation.why(t)).toList()));
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    /**
     * tau2's user gives the zip code only when asked: under query.noisy-user (which answers the asking) over
     * obs.cascading-failure, the zip a look-up sent read as a value the later profile "gave", so redoing the look-up
     * was refused in turn and the oracle ran out of steps (98 of 114 tasks at seed 1); and under latency:3 with
     * logic.extra-prerequisite nobody polled a job whose poll needs a token (the view check, 46 of 100).
     */
    @Test
    void bothSolversSucceedUnderStacksThatOnceFailedHere() {
        List<String> failures = new ArrayList<>();
        for (String shift : List.of("query.noisy-user:severity=3+obs.cascading-failure:severity=3", "obs.latency:severity=3+logic.extra-prerequisite")) {
            for (Validation.Solver solver : Validation.Solver.values()) {
                Validation.Result r = Validation.run(ENV, dev.openagent.shift.ShiftSpec.parseStack(shift), new TaskPlan(Split.TEST, 40, 1, 0), 2, solver);
                if (!r.passed()) {
                    failures.add(shift + " (" + solver + "): " + r.failed() + " of " + r.episodes() + ", e.g. "
                            + String.join("; ", r.failures().stream().limit(3).map(t -> t.taskId() + ": " + Validation.why(t)).toList()));
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }
}
