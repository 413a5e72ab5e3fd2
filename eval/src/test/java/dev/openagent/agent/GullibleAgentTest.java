package dev.openagent.agent;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.metrics.ByShift;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gullible baseline proves the security shifts and intent drift bite: it solves static tasks, is
 * attacked under both security shifts on every environment where they apply (the oracle never is), and
 * fails the requests a user revised.
 */
class GullibleAgentTest {
    static final int N = 40;

    static List<String> envs() { return Environments.ids(); }

    private static List<Trajectory> run(String env, String spec, Agent agent, long seedBase) {
        Env e = spec.equals("none") ? Environments.get(env).create() : ShiftSpec.parseStack(spec).apply(Environments.get(env).create());
        List<Trajectory> out = new ArrayList<>();
        for (int i = 0; i < N; i++) out.add(Episodes.run(e, agent, new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, seedBase + i, 0)));
        return out;
    }

    @ParameterizedTest
    @MethodSource("envs")
    void solvesEveryStaticTask(String env) {
        List<Trajectory> ts = run(env, "none", new GullibleAgent(), 11);
        assertEquals(N, ts.stream().filter(Trajectory::success).count());
        ByShift b = ByShift.of(ts);
        assertNull(b.attackSuccessRate(), "no attack, no attack success rate");
    }

    static Stream<Arguments> attacks() {
        List<Arguments> out = new ArrayList<>();
        for (String env : envs()) {
            boolean tools = Environments.get(env).info().iface() == Interface.FUNCTION_CALL;
            for (int sev = 1; sev <= 3; sev++) {
                out.add(Arguments.of(env, "obs.injection:severity=" + sev));
                if (tools) out.add(Arguments.of(env, "tool.poisoned-description:severity=" + sev));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("attacks")
    void isAttackedUnderEverySecurityShiftWhereTheOracleIsNot(String env, String spec) {
        for (long seed : new long[]{200, 300}) {
            ByShift gullible = ByShift.of(run(env, spec, new GullibleAgent(), seed));
            ByShift oracle = ByShift.of(run(env, spec, new OracleAgent(), seed));
            assertTrue(gullible.attackSuccessRate() > 0.5, env + " " + spec + ": attack success " + gullible.attackSuccessRate());
            assertEquals(0.0, oracle.attackSuccessRate(), env + " " + spec);
            assertEquals(1.0, oracle.successRate(), env + " " + spec);
            assertTrue(gullible.successRate() < 0.5, env + " " + spec + ": an obeyed attack costs the user's task; utility " + gullible.successRate());
        }
    }

    @ParameterizedTest
    @MethodSource("envs")
    void failsTheRequestsTheUserRevised(String env) {
        List<Trajectory> ts = run(env, "query.intent-drift", new GullibleAgent(), 400);
        List<Trajectory> revised = ts.stream().filter(t -> t.messages().stream()
                .anyMatch(m -> m.role().equals("user") && m.content() != null && m.content().startsWith("Sorry, I got that wrong"))).toList();
        int least = Environments.get(env).info().iface() == Interface.FUNCTION_CALL ? N * 3 / 4 : N / 4;
        assertTrue(revised.size() >= least, env + ": " + revised.size() + " revised");
        long stale = revised.stream().filter(Trajectory::success).count();
        assertTrue(stale <= revised.size() / 10, env + ": " + stale + " of " + revised.size() + " stale answers passed");
    }
}
