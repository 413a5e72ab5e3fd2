package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.openagent.shift.ShiftMechanismsTest.shifted;
import static dev.openagent.shift.StaticCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * obs.latency, written from its documentation: every tool (not ask_user) takes a documented timeout_seconds (1 to 120,
 * default 10); a slow tool's call with the default times out with a 504 that names a longer timeout, and times out the
 * same way when sent again as it was. Severity 1: only the first tool the episode calls is slow (about 40 s); 2: every
 * tool; 3: every tool takes about 300 s, so no timeout will do and the 504 names async=true: the call then answers a
 * job_id, and get_job_result answers "running" once, then the call's static result. That the static plan fails under
 * it is ShiftsBiteTest's, that the oracle and the view check solve it ShiftOracleTest's. (Mutations tried: a call
 * of a tool that timed out before getting through whatever its timeout, all 12 cases fail; the poll giving the result
 * at once, the 4 severity-3 cases fail; severity 1 slowing every tool, the 4 severity-1 cases fail.)
 */
class LatencyTest {
    static final int EPISODES = 12;

    private static boolean timedOut(Observation o) {
        return o.isError() && o.error().code() == ToolError.Code.TRANSIENT && o.error().message().startsWith("504 Gateway Timeout");
    }

    private static String with(StaticCalls.Call c, String param, JsonNode value) {
        ObjectNode args = StaticCalls.args(c);
        args.set(param, value);
        return Json.write(args);
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void slowToolsTimeOutUntilALongerTimeoutOrAJobGetsTheResult(String envId, int severity) {
        Env env = shifted(envId, "obs.latency:severity=" + severity);
        int slowCalls = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            for (ToolSpec t : start.tools()) {
                if (t.name().equals(Protocol.ASK_USER) || t.name().equals("get_job_result")) continue;
                JsonNode timeout = t.parameters().path("properties").path("timeout_seconds");
                assertEquals("integer", timeout.path("type").asText(), t.name() + " documents timeout_seconds");
                assertEquals(120, timeout.path("maximum").asInt());
                assertTrue(timeout.path("description").asText().contains("default 10"), timeout.toString());
                assertEquals(severity >= 3, t.parameters().path("properties").has("async"), t.name() + " async at severity 3 only");
                assertFalse(t.parameters().path("required").toString().contains("timeout_seconds"));
            }
            assertEquals(severity >= 3, start.tools().stream().anyMatch(t -> t.name().equals("get_job_result")), "the poll tool at severity 3 only");
            String first = s.calls().isEmpty() ? null : s.calls().getFirst().tool();
            boolean probed = false;   // the first slow call is probed further (the step limit counts the probes)
            for (StaticCalls.Call c : s.calls()) {
                boolean slow = severity >= 2 || c.tool().equals(first);
                Observation o = call(env, c);
                if (!slow) {
                    assertEquals(c.result().text(), o.text(), c.tool() + " is not slow at severity 1");
                    continue;
                }
                slowCalls++;
                assertTrue(timedOut(o), o.text());
                if (!probed) assertEquals(o.text(), call(env, c).text(), "sent again at once it times out the same way");
                if (severity < 3) {
                    assertTrue(o.error().message().endsWith("timeout_seconds=60"), o.text());
                    Observation longer = call(env, c.tool(), with(c, "timeout_seconds", Json.MAPPER.getNodeFactory().numberNode(60)));
                    assertEquals(c.result().text(), longer.text(), "a long enough timeout gets the static result");
                    probed = true;
                    continue;
                }
                if (!probed) {
                    Observation longest = call(env, c.tool(), with(c, "timeout_seconds", Json.MAPPER.getNodeFactory().numberNode(120)));
                    assertTrue(timedOut(longest), "at severity 3 no timeout will do: " + longest.text());
                }
                probed = true;
                assertTrue(o.error().message().contains("\nasync=true\n") && o.error().message().contains("get_job_result"), o.text());
                Observation ticket = call(env, c.tool(), with(c, "async", Json.MAPPER.getNodeFactory().booleanNode(true)));
                if (c.result().isError()) {
                    assertEquals(c.result().text(), ticket.text(), "a job's call that fails fails at once");
                    continue;
                }
                String job = ticket.payload().path("job_id").asText();
                assertTrue(job.startsWith("JOB-") && ticket.payload().path("status").asText().equals("running"), ticket.text());
                String poll = Json.write(Json.object("job_id", job));
                Observation running = call(env, "get_job_result", poll);
                assertEquals("running", running.payload().path("status").asText(), running.text());
                assertEquals(c.result().text(), call(env, "get_job_result", poll).text(), "the second poll gives the call's result");
            }
        }
        assertTrue(slowCalls >= EPISODES, "at least each episode's first call is slow: " + slowCalls);
    }
}
