package dev.openagent.shift;

import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolFacts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;

import static dev.openagent.shift.ShiftMechanismsTest.shifted;
import static dev.openagent.shift.StaticCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * obs.flapping, written from its documentation: a flapping tool is down for k calls, then up for k, then down again,
 * from its first call on (k = 1 at severities 1 and 2, 2 at 3); at severity 1 only the first tool the episode calls
 * flaps, from 2 every tool. A call of a tool that is down answers a transient 503 that says the tool is flapping and
 * to retry, and never reaches the service; the call that gets through answers as the static one did. That the static
 * plan fails under it is ShiftsBiteTest's (ShiftExpectations' line), that the oracle and the view check solve it
 * ShiftOracleTest's. (Mutations tried: every tool starting up, all 24 cases fail; k = 1 at severity 3, the 4
 * severity-3 cases of the schedule test fail; severity 1 flapping every tool, the 4 severity-1 cases fail.)
 */
class FlappingTest {
    static final int EPISODES = 15;

    private static boolean refused(Observation o) {
        return o.isError() && o.error().code() == ToolError.Code.TRANSIENT && o.error().message().contains("is flapping")
                && o.error().message().contains("retry");
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void aFlappingToolIsDownKCallsThenUpKCallsForTheWholeEpisode(String envId, int severity) {
        int k = severity >= 3 ? 2 : 1;
        Env env = shifted(envId, "obs.flapping:severity=" + severity);
        int downs = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Map<String, Integer> calls = new HashMap<>();
            String first = s.calls().isEmpty() ? null : s.calls().getFirst().tool();
            for (StaticCalls.Call c : s.calls()) {
                boolean flaps = severity >= 2 || c.tool().equals(first);
                Observation o = call(env, c);
                int refusedInARow = 0;
                while (refused(o)) {
                    refusedInARow++;
                    assertTrue(refusedInARow <= k, "down at most " + k + " calls in a row: " + o.text());
                    o = call(env, c);
                }
                int n = calls.getOrDefault(c.tool(), 0);
                // Down for the next k calls when the tool's count of calls is in a down stretch, else up.
                int expected = !flaps ? 0 : (n / k) % 2 == 0 ? k - n % k : 0;
                assertEquals(expected, refusedInARow, c.tool() + " after " + n + " calls at severity " + severity);
                calls.put(c.tool(), n + refusedInARow + 1);
                downs += refusedInARow;
                assertEquals(c.result().text(), o.text(), "the call that gets through answers as the static one");
            }
            // A success says nothing about the next call: a look-up called on and on goes down k, up k, for good.
            if (first != null && env.facts().tool(first).map(ToolFacts::readOnly).orElse(false)) {
                StaticCalls.Call c = s.calls().getFirst();
                int n = calls.get(first);
                for (int i = 0; i < 4 * k; i++, n++) {
                    assertEquals((n / k) % 2 == 0, refused(call(env, c)), first + "'s call number " + (n + 1));
                }
            }
        }
        assertTrue(downs >= EPISODES, "every episode's first call at least is refused: " + downs);
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void aTurnWithADownToolIsRefusedWholeAndTheOthersCallsDoNotCount(String envId, int severity) {
        Env env = shifted(envId, "obs.flapping:severity=" + severity);
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, 3)) {
            var calls = d.statics().calls();
            if (calls.size() < 2 || calls.get(0).tool().equals(calls.get(1).tool())) continue;
            // Two different tools in one turn, both down (severity 2, 3) or the first only (1): the turn is refused whole.
            var step = env.step(new dev.openagent.sandbox.Action.CallTools(java.util.List.of(calls.get(0).call(), calls.get(1).call())));
            assertEquals(2, step.observations().size());
            step.observations().forEach(o -> assertTrue(o.isError() && o.error().code() == ToolError.Code.TRANSIENT, o.text()));
            assertFalse(step.done());
        }
    }
}
