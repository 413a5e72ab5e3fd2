package dev.openagent.tau2;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Trajectory;
import dev.openagent.run.Conditions;
import dev.openagent.run.LocalRunner;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.json.Json;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** tau2-retail under the catalog: the oracle through every applicable shift on every task, and what the declarations give. */
class Tau2ShiftsTest {
    private static final Tau2Retail ENV = Checkouts.retail();

    /** One request per task of both splits: all 114. */
    private static List<TaskRequest> everyTask() {
        List<TaskRequest> out = new ArrayList<>();
        for (Split s : Split.values()) for (int i = 0; i < ENV.tasks(s); i++) out.add(new TaskRequest(s, i, 0));
        return out;
    }

    @Test
    void theOracleSolvesEveryTaskUnderEveryApplicableShiftAndRefusesTheUnsolvableOnes() {
        Conditions c = Conditions.of("all", ENV, false);
        List<String> failures = new ArrayList<>();
        for (ShiftStack stack : c.stacks()) {
            for (Trajectory t : LocalRunner.run(() -> stack.apply(ENV.create()), new OracleAgent(), everyTask(), 2)) {
                boolean ok = t.success() && !Boolean.TRUE.equals(t.outcome().attacked()) && (t.solvable() || t.outcome().refused());
                if (!ok) failures.add(stack.label() + " " + t.taskId() + ": " + t.outcome().end() + " " + t.outcome().detail());
            }
        }
        assertTrue(failures.isEmpty(), failures.size() + " failures, e.g. " + failures.subList(0, Math.min(5, failures.size())));
        assertEquals(40, c.stacks().size());
    }

    @Test
    void whatDoesNotApplyIsSaidWithTheReason() {
        Map<String, String> skipped = new TreeMap<>(Conditions.of("all", ENV, false).skipped());
        assertEquals(List.of("action.verification-change", "domain.policy-update", "interface.action-list"), List.copyOf(skipped.keySet()));
        assertTrue(skipped.get("domain.policy-update").contains("take none of them (a customer's name comes as first_name and last_name)"));
        assertTrue(skipped.get("action.verification-change").contains("tau2's retail tools issue no codes"));
    }

    @Test
    void declaredImpossibleVariantsAreRealisticAndTheirProbesRunIntoTheMissingThing() {
        int declared = 0;
        List<String> wrong = new ArrayList<>();
        for (TaskRequest r : everyTask()) {
            Env e = ENV.create();
            e.reset(r);
            Task t = e.task();
            Optional<Task> u = e.facts().unsolvable(t, 7);
            if (u.isEmpty()) continue;
            declared++;
            Task v = u.get();
            if (v.solvable() || v.query().equals(t.query())) wrong.add(t.id() + ": not restated");
            List<GoldPlan.Call> probes = v.plan().calls();
            GoldPlan.Call last = probes.getLast();
            Step s = e.step(Action.CallTools.of("p", last.tool(), Json.write(last.args())));
            if (!s.observations().getFirst().isError()) wrong.add(t.id() + ": the probe " + last.tool() + " " + last.args() + " found something");
            if (probes.stream().anyMatch(p -> RetailTools.WRITES.contains(p.tool()))) wrong.add(t.id() + ": a probe writes");
        }
        assertTrue(wrong.isEmpty(), String.join("\n", wrong));
        System.out.println("tau2 shifts: " + declared + " of 114 tasks have a declared impossible variant");
        assertEquals(114, declared, "every task has a declared impossible variant");
    }

    @Test
    void longerChainsReachTheNamedOrderThroughTheAccount() {
        int chains = 0;
        for (TaskRequest r : everyTask()) {
            Env e = ENV.create();
            e.reset(r);
            Optional<Chain> c = e.facts().longerChain(e.task(), 3, 2);
            if (c.isEmpty()) continue;
            chains++;
            assertTrue(c.get().query().contains(" order listed on my account)"), c.get().query());
            assertTrue(!c.get().query().contains(c.get().expected()), "the order id is gone from the request");
            assertEquals(2, c.get().hops().size());
        }
        System.out.println("tau2 shifts: " + chains + " of 114 tasks reach their order through the account");
        assertTrue(chains >= 12, chains + " tasks restated through the account");
    }

    @Test
    void ambiguousDetailsAreAmbiguousInTau2sDatabase() {
        int ambiguous = 0;
        for (Tau2Retail.Gold g : ENV.tasks().values()) {
            for (Detail d : g.details()) {
                if (!d.ambiguousWithout()) continue;
                ambiguous++;
                String rest = g.query().replace(d.span(), "");
                long matching = ENV.db().users().values().stream().filter(u -> rest.contains(u.name().firstName() + " " + u.name().lastName())
                        || rest.contains(u.address().zip())).count();
                assertTrue(matching > 1, g.task().id() + " without " + d.span() + " matches " + matching + " customer(s)");
            }
        }
        System.out.println("tau2 shifts: " + ambiguous + " ambiguous details");
        assertTrue(ambiguous >= 38, ambiguous + " ambiguous details");
    }

    @Test
    void revisionsAreOtherTasksOfTheSameKindJudgedByTheirOwnGold() {
        int revised = 0;
        for (TaskRequest r : everyTask()) {
            Env e = ENV.create();
            e.reset(r);
            Optional<Task> next = e.facts().revised(e.task(), 11);
            if (next.isEmpty()) continue;
            revised++;
            assertEquals(e.task().kind(), next.get().kind());
            assertTrue(!next.get().expect().equals(e.task().expect()), "another tau2 task");
            // Answering at once fails the revision of a writing task, as its database is not the revision's gold.
            if (next.get().writes()) assertTrue(e.facts().check(next.get(), "done") != null);
        }
        System.out.println("tau2 shifts: " + revised + " of 114 tasks can be revised");
        assertTrue(revised >= 60, revised + " tasks can be revised");
    }

    @Test
    void anEpisodeEndedByATransferIsJudgedByTheLayersThatScoreEndings() {
        Tau2Retail.Gold g = ENV.gold("50");
        Split split = Split.parse(g.task().split());
        TaskRequest request = new TaskRequest(split, ENV.split(split).indexOf(g), 0);
        Env plain = ENV.create();
        plain.reset(request);
        assertTrue(plain.step(Action.CallTools.of("c", "transfer_to_human_agents", "{\"summary\":\"x\"}")).outcome().success(), "tau2's gold ending");
        Env shifted = dev.openagent.shift.ShiftSpec.parseStack("task.unsolvable").apply(ENV.create());
        shifted.reset(request);
        Step s = shifted.step(Action.CallTools.of("c", "transfer_to_human_agents", "{\"summary\":\"x\"}"));
        assertTrue(s.done());
        assertEquals(Outcome.End.ANSWERED, s.outcome().end());
        assertTrue(!s.outcome().success(), "a transfer is an answer: wrong on an unsolvable task");
    }
}
