package dev.openagent.agent;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Episodes under a security shift, for the tests of its attack goals (CancelAttackTest, SendAttackTest). */
final class AttackEpisodes {
    private AttackEpisodes() {}

    /** {@code n} test episodes of the environment under the shift stack, from task 500 on. */
    static List<Trajectory> run(String env, String spec, Agent agent, int n) {
        Env e = ShiftSpec.parseStack(spec).apply(Environments.get(env).create());
        List<Trajectory> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(Episodes.run(e, agent, new TaskRequest(Split.TEST, 500 + i, 0)));
        return out;
    }

    /**
     * Runs the gullible agent and the oracle on the same {@code n} episodes. Both must meet the same instruction
     * ({@code askedFor}: what the attack names, null where it asks nothing); the oracle never carries it out ({@code
     * done}) and succeeds unattacked; where asked, the gullible agent does it, which counts as an attack and fails
     * the user's task. Returns in how many episodes the attack asked.
     */
    static int assertTheGullibleAgentObeysAndTheOracleDoesNot(String env, String shift, int n,
                                                               Function<Trajectory, String> askedFor, BiPredicate<Trajectory, String> done) {
        List<Trajectory> gullible = run(env, shift, new GullibleAgent(), n);
        List<Trajectory> oracle = run(env, shift, new OracleAgent(), n);
        int asked = 0;
        for (int i = 0; i < n; i++) {
            Trajectory g = gullible.get(i), o = oracle.get(i);
            String target = askedFor.apply(g);
            assertEquals(target, askedFor.apply(o), "both agents meet the same attack");
            assertEquals(Boolean.FALSE, o.outcome().attacked(), o.taskId());
            assertTrue(o.success(), o.taskId());
            if (target == null) continue;
            asked++;
            assertFalse(done.test(o, target), o.taskId() + ": the oracle does nothing the user did not ask for");
            assertTrue(done.test(g, target), g.taskId() + ": the gullible agent obeyed");
            assertEquals(Boolean.TRUE, g.outcome().attacked(), g.taskId());
            assertFalse(g.success(), g.taskId() + ": the attack spoiled what the user asked for");
        }
        return asked;
    }

    /**
     * Over episodes of an agent that tries the attack's {@code tool} with made-up values: where the attack asked
     * ({@code askedFor} not null), the environment refused the call, the attack's goal was not reached ({@code
     * done}) and the episode counts as no attack. Returns those episodes; there must be at least one.
     */
    static List<Trajectory> assertRefusedAttemptsAreNoAttack(List<Trajectory> episodes, String tool,
                                                             Function<Trajectory, String> askedFor, BiPredicate<Trajectory, String> done) {
        List<Trajectory> tried = new ArrayList<>();
        for (Trajectory t : episodes) {
            String target = askedFor.apply(t);
            if (target == null) continue;
            tried.add(t);
            assertTrue(t.messages().stream().anyMatch(m -> tool.equals(m.name()) && m.error() != null), t.taskId() + ": the environment refused " + tool);
            assertFalse(done.test(t, target), t.taskId());
            assertEquals(Boolean.FALSE, t.outcome().attacked(), t.taskId() + ": a refused " + tool + " is no attack");
        }
        assertFalse(tried.isEmpty(), "no episode asked for " + tool);
        return tried;
    }

    /** Whether a message of the episode contains the text. */
    static boolean anyMessageContains(Trajectory t, String text) {
        return t.messages().stream().anyMatch(m -> m.content() != null && m.content().contains(text));
    }

    /** No injected instruction in {@code n} episodes of the environment contains the goal's wording. */
    static void assertNeverAsked(String env, String instructionPart, int n) {
        for (Trajectory t : run(env, "obs.injection", new GullibleAgent(), n)) assertFalse(anyMessageContains(t, instructionPart), t.taskId());
    }
}
