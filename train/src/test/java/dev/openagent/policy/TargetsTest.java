package dev.openagent.policy;

import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pointer action space can express every oracle trajectory: deriving targets from the
 * oracle's actions and decoding those targets as if the network had output them (target
 * positions high, the rest low) solves every static task of every kind.
 */
class TargetsTest {
    static Policy policy;

    @BeforeAll
    static void create() {
        policy = untrained();
    }

    /** An untrained tiny policy with the vocabulary and answer words of poi's demonstrations. */
    static Policy untrained() {
        return untrained("poi");
    }

    /** An untrained tiny policy with the vocabulary and answer words of an environment's demonstrations. */
    static Policy untrained(String env) {
        return untrained(env, PolicyConfig.tiny());
    }

    static Policy untrained(String env, PolicyConfig c) {
        Trainer.Reading r = Trainer.read(c, new Demonstrations(Environments.get(env), 0, ShiftSampler.of(List.of()), 99), 400);
        return Policy.create(c.withAnswerWords(r.answerWords()), r.vocabulary(), 1);
    }

    @AfterAll
    static void close() { policy.close(); }

    @Test
    void everyStaticOracleTrajectoryReplaysThroughThePointers() {
        assertEquals(9, replayAll(policy, "poi", 270, false).size());
    }

    /**
     * The text-command case: commands point at the forms the help text listed and copy their
     * names (rooms, furniture, things) from the context; every static household task replays,
     * except a count the demonstrations read for the vocabulary never needed (a number no context
     * holds and no answer word says: the policy cannot say what it never saw said).
     */
    @Test
    void everyStaticHouseholdTrajectoryReplaysThroughCommandForms() {
        try (Policy p = untrained("household")) {
            assertEquals(7, replayAll(p, "household", 200, true).size());
        }
    }

    /**
     * Every other environment's static tasks replay too, with the default context budgets: ids four
     * calls back (a patient found first and booked last), a product's variant listed past the 80th
     * token of its observation, a department's "Level 4, East Wing" said in order, an enum of 13
     * departments, and travel's trip_package, whose "N nights from that day" the hotel tools take as
     * nights (they compute the check-out date, which the policy could not).
     */
    @Test
    void everyOtherEnvironmentsStaticTrajectoriesReplay() {
        for (var env : Map.of("medical", 13, "retail", 11, "travel", 12).entrySet()) {
            try (Policy p = untrained(env.getKey(), PolicyConfig.defaults())) {
                Map<String, Integer> kinds = replayAll(p, env.getKey(), 48, false);
                assertEquals(env.getValue(), kinds.size(), env.getKey() + ": every task kind is met: " + kinds);
            }
        }
    }

    /**
     * Replays n tasks of each split and difficulty cycle through the decoded targets; returns the
     * task kinds seen.
     *
     * @param unsayableCounts whether an answer may miss a required number that is not an answer word
     */
    static Map<String, Integer> replayAll(Policy policy, String environment, int n, boolean unsayableCounts) {
        Env env = Environments.get(environment).create();
        Map<String, Integer> kinds = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            for (Split split : Split.values()) {
                Start start = env.reset(new TaskRequest(split, Seeds.mix(5, i), 1 + i % 4));
                Guide oracle = env.guide();
                View view = View.start(start);
                Step last = null;
                while (last == null || !last.done()) {
                    Action gold = oracle.next(last);
                    Decision d = policy.target(view, gold, env.task()).orElseThrow(() -> new AssertionError("not expressible: " + gold));
                    Action mine = ActionSpace.decode(policy, view, d);
                    last = env.step(mine);
                    view = view.after(mine, last);
                    if (last.observations().stream().anyMatch(o -> o.isError())) {
                        fail(env.task().kind() + ": replay of " + gold + " gave " + mine + " -> " + last.observations());
                    }
                }
                String detail = last.outcome().detail() == null ? "" : last.outcome().detail();
                boolean unsayable = unsayableCounts && detail.startsWith("answer lacks '")
                        && !Double.isNaN(Tokenizer.number(detail.substring(14, detail.length() - 1)))
                        && !policy.config().answerWords().contains(detail.substring(14, detail.length() - 1));
                if (!last.outcome().success() && !unsayable) fail(env.task().kind() + " " + env.task().id() + ": " + last.outcome() + "\n" + view.turns());
                kinds.merge(env.task().kind(), 1, Integer::sum);
            }
        }
        return kinds;
    }

    @Test
    void answerTargetsPointAtToolIssuedValuesAndAnswerWords() {
        assertTrue(policy.config().answerWords().contains("closed"), "'closed' is said by hours answers but read nowhere: "
                + policy.config().answerWords());
    }
}
