package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Observation;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.openagent.shift.ShiftMechanismsTest.shifted;
import static dev.openagent.shift.StaticCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * obs.cascading-failure, written from its documentation, by driving the static episode call by call: a call that
 * passes a value an earlier call of a read-only tool returned (or whose declared prerequisite was called) may be
 * refused with a 409 naming that earlier call, its tool and its arguments as they were sent; it keeps failing until
 * that call is redone, and then gets its static result. Severity 1 invalidates once, 2 up to twice, 3 up to twice with
 * the upstream's own upstream invalidated too (redoing it fails, naming its own upstream), which 1 and 2 never do.
 * That the static plan fails under it is ShiftsBiteTest's (ShiftExpectations' line, episodes where a call uses an
 * earlier call's result), that the oracle and the view check solve it ShiftOracleTest's. (Mutations tried: no chain
 * at severity 3, 4 failures (the severity-3 tests); the refused call forwarded anyway, every environment at every
 * severity; the upstream's arguments left out of the error, every environment; severity 1 invalidating twice, 4.)
 */
class CascadingFailureTest {
    static final int EPISODES = 30;
    private static final Pattern REDO = Pattern.compile(
            "^409 Conflict: this call depends on an earlier result: (?:the values? (.+?) that an earlier (\\w+) call returned (?:is|are) no longer valid"
                    + "|the earlier (\\w+) call it depends on is no longer valid).*? Call (\\w+) again with the same arguments as before \\((\\{.*\\})\\) to refresh it, then repeat this call\\.$");

    /** The call an error says to redo, or null when the observation is no such error. */
    private record Redo(String tool, String args, List<String> values) {}

    private static Redo redo(Observation o) {
        if (!o.isError() || !o.error().message().startsWith("409 Conflict")) return null;
        Matcher m = REDO.matcher(o.error().message());
        assertTrue(m.matches(), "the 409 names the call to redo: " + o.error().message());
        String named = m.group(2) != null ? m.group(2) : m.group(3);
        assertEquals(named, m.group(4), "the call it names is the one to redo");
        return new Redo(m.group(4), m.group(5), m.group(1) == null ? List.of() : List.of(m.group(1).split(", ")));
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void aCallUsingAnInvalidatedResultFailsNamingTheCallToRedoAndSucceedsAfterIt(String envId, int severity) {
        Env env = shifted(envId, "obs.cascading-failure:severity=" + severity);
        EnvFacts facts = Environments.get(envId).create().facts();
        int invalidated = 0;
        int twice = 0;
        int deepest = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            int refusedHere = 0;
            for (int k = 0; k < s.calls().size(); k++) {
                StaticCalls.Call c = s.calls().get(k);
                Observation o = call(env, c);
                Redo r = redo(o);
                if (r != null) {
                    refusedHere++;
                    // It names an earlier call of a read-only tool, with the arguments it was sent, that gave what this call uses.
                    assertTrue(facts.readOnlyTools().contains(r.tool()), r.tool() + " is declared read-only");
                    StaticCalls.Call up = earlier(s, k, r);
                    assertNotNull(up, envId + " " + d.request() + ": no earlier call " + r.tool() + " " + r.args());
                    for (String v : r.values()) {
                        assertTrue(c.call().arguments().contains(v) && up.result().text().contains(v), v + " came from " + r.tool() + " and is passed on by " + c.tool());
                    }
                    if (r.values().isEmpty()) {
                        assertTrue(facts.prerequisites().contains(new EnvFacts.Prerequisite(r.tool(), c.tool())), r.tool() + " is declared before " + c.tool());
                    }
                    for (int i = 0; i < 3; i++) assertEquals(r, redo(call(env, c)), "the call fails the same way until the upstream call is redone");
                    deepest = Math.max(deepest, repair(env, r, s, k, 1));
                    o = call(env, c);
                }
                assertEquals(c.result().text(), o.text(), envId + " " + c.tool() + ": after the redo the call gets the static result");
            }
            assertTrue(refusedHere <= (severity == 1 ? 1 : 2), envId + " " + d.request() + ": " + refusedHere + " invalidations at severity " + severity);
            if (refusedHere > 0) invalidated++;
            if (refusedHere > 1) twice++;
        }
        assertTrue(invalidated >= EPISODES / 3, envId + ": invalidations in " + invalidated + " of " + EPISODES + " episodes");
        if (severity >= 2) assertTrue(twice > 0, envId + ": a second invalidation in none of " + EPISODES + " episodes at severity " + severity);
        if (severity < 3) assertEquals(1, deepest, envId + ": the redone call never fails below severity 3");
        else assertTrue(deepest >= 2, envId + ": a redone call failed naming its own upstream in none of " + EPISODES + " episodes");
    }

    /** Redoes the call an error named, first what its own refusal names (a chain); returns how deep the chain went. */
    private static int repair(Env env, Redo r, StaticCalls s, int before, int depth) {
        assertTrue(depth <= 3, "a chain is at most three calls deep");
        Observation o = call(env, r.tool(), r.args());
        Redo further = redo(o);
        if (further == null) {
            StaticCalls.Call up = earlier(s, before, r);
            assertEquals(up.result().text(), o.text(), "the redone " + r.tool() + " gets its static result");
            return depth;
        }
        int deeper = repair(env, further, s, before, depth + 1);
        assertEquals(null, redo(call(env, r.tool(), r.args())), "once its upstream is redone, " + r.tool() + " goes through");
        return deeper;
    }

    /** The static call before {@code k} that the error names: that tool, with those arguments. */
    private static StaticCalls.Call earlier(StaticCalls s, int k, Redo r) {
        JsonNode args = Json.parse(r.args());
        for (int i = k - 1; i >= 0; i--) {
            StaticCalls.Call c = s.calls().get(i);
            if (c.tool().equals(r.tool()) && StaticCalls.args(c).equals(args)) return c;
        }
        return null;
    }
}
