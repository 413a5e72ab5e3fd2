package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.openagent.shift.ShiftMechanismsTest.shifted;
import static dev.openagent.shift.StaticCalls.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shifts that happen mid-episode happen when they say: each static episode is driven call by call under
 * the shift (the oracle's static arguments; ShiftMechanismsTest has the harness) on every function-call
 * environment at every severity, and what changes, and when, is checked against the documentation.
 */
class MidEpisodeShiftsTest {
    static final int EPISODES = 30;

    private static final Pattern WITHDRAWN = Pattern.compile("^- '([^']+)' is withdrawn; use '([^']+)' \\(same parameters", Pattern.MULTILINE);

    /**
     * tool.set-change: the tool list at the start is the static one; a failed call changes nothing; the notice
     * comes in the step of the first successful tool result, right after it, and never again. It withdraws the
     * tool just used (so a withdrawn tool was always already used), at severity 2 also the next tool the task
     * needs, at 3 every other tool it needs; a withdrawn tool then answers 410 naming its replacement, which
     * gives the static result. (Mutations tried: the notice at the first call even when it failed; the notice
     * before the result; the used tool left out of the withdrawn ones; the notice repeated on the next result.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void setChangeWithdrawsAUsedToolRightAfterTheFirstSuccessfulResult(String envId, int severity) {
        Env env = shifted(envId, "tool.set-change:severity=" + severity);
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            assertEquals(Json.write(s.start()), Json.write(start), "the start (tool list included) is the static one");
            if (s.calls().isEmpty()) continue;
            Step bad = StaticCalls.step(env, s.calls().getFirst().tool(), "{\"no_such_parameter\": 1}");
            assertEquals(1, bad.observations().size(), "no notice after a failed call: " + bad.observations());
            Map<String, String> replacements = new LinkedHashMap<>();
            int notices = 0;
            for (StaticCalls.Call c : s.calls()) {
                String replacement = replacements.get(c.tool());
                Step step = StaticCalls.step(env, c.tool(), c.call().arguments());
                Observation o = step.observations().getFirst();
                if (replacement != null) {
                    assertTrue(o.isError() && o.error().code() == ToolError.Code.UNAVAILABLE && o.text().contains("'" + replacement + "'"), o.text());
                    step = StaticCalls.step(env, replacement, c.call().arguments());
                    o = step.observations().getFirst();
                    assertEquals(replacement, o.tool());
                }
                assertEquals(c.result().text(), o.text(), envId + " " + c.tool() + ": the data is the static data");
                List<Observation> notice = step.observations().stream().filter(x -> x.source() == Observation.Source.ENV).toList();
                if (notices > 0 || c.result().isError()) {
                    assertTrue(notice.isEmpty(), "one notice only, after a successful result: " + notice);
                    continue;
                }
                assertEquals(1, notice.size(), "the first successful result brings the notice: " + step.observations());
                assertEquals(notice.getFirst(), step.observations().getLast(), "right after the result");
                assertTrue(notice.getFirst().text().startsWith("Notice: the tool set changed."), notice.getFirst().text());
                notices++;
                Matcher m = WITHDRAWN.matcher(notice.getFirst().text());
                while (m.find()) replacements.put(m.group(1), m.group(2));
                List<String> withdrawn = List.copyOf(replacements.keySet());
                List<String> rest = new ArrayList<>(s.plannedTools());
                rest.remove(c.tool());
                List<String> expected = new ArrayList<>(List.of(c.tool()));
                if (severity == 2 && !rest.isEmpty()) expected.add(rest.getFirst());
                if (severity == 3) expected.addAll(rest);
                assertEquals(expected, withdrawn, envId + " " + d.request() + ": the tool just used first, then as the severity says");
                for (String old : withdrawn) assertTrue(start.tools().stream().noneMatch(t -> t.name().equals(replacements.get(old))), "not listed");
            }
            assertEquals(1, notices, envId + " " + d.request() + ": one notice per episode");
        }
    }

    /**
     * obs.schema-drift: the first successful tool result has the schema the agent knows (errors before it
     * change nothing); every later one is wrapped as the severity says ({@code data}; camelCase keys;
     * {@code response.data} with synonyms), with the static values in the static order. (Mutations tried: the
     * drift from the first result; an error counted as the first result; a value changed in a drifted result.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void schemaDriftKeepsTheFirstResultAndChangesTheLaterOnes(String envId, int severity) {
        Env env = shifted(envId, "obs.schema-drift:severity=" + severity);
        int drifted = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            if (s.calls().isEmpty()) continue;
            Observation bad = call(env, s.calls().getFirst().tool(), "{\"no_such_parameter\": 1}");
            assertTrue(bad.isError(), bad.text());
            boolean first = true;
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                if (c.result().isError() || c.payload() == null) {
                    assertEquals(c.result().text(), o.text());
                    continue;
                }
                if (first) {
                    assertEquals(c.result().text(), o.text(), envId + ": the first result keeps the known schema");
                    first = false;
                    continue;
                }
                drifted++;
                JsonNode envelope = severity >= 3 ? o.payload().path("response") : o.payload();
                assertEquals("2026-12", envelope.path("api_version").asText(), o.text());
                JsonNode data = envelope.path("data");
                if (severity == 1) assertEquals(c.payload(), data, "severity 1 only wraps");
                if (severity == 2) assertEquals(camel(c.payload()), data, "severity 2 renames every key to camelCase");
                if (severity == 3) assertEquals(StaticCalls.values(c.payload()), StaticCalls.values(data), "the static values, in order");
            }
        }
        assertTrue(drifted >= EPISODES / 2, envId + ": only " + drifted + " later results in " + EPISODES + " episodes");
    }

    /** Keys in camelCase ({@code place_id} -> {@code placeId}), written here from the documentation. */
    static JsonNode camel(JsonNode v) {
        if (v instanceof ObjectNode o) {
            ObjectNode out = Json.object();
            o.properties().forEach(e -> {
                StringBuilder k = new StringBuilder();
                boolean up = false;
                for (char ch : e.getKey().toCharArray()) {
                    if (ch == '_') up = k.length() > 0;
                    else {
                        k.append(up ? Character.toUpperCase(ch) : ch);
                        up = false;
                    }
                }
                out.set(k.toString(), camel(e.getValue()));
            });
            return out;
        }
        if (v.isArray()) {
            var out = Json.NODES.arrayNode();
            v.forEach(x -> out.add(camel(x)));
            return out;
        }
        return v;
    }

    /**
     * obs.auth-expiry: the session expires at the second call that reaches the service (the first when the
     * task needs one call), and at severity 2-3 once or twice more, two calls after each renewal; until
     * renewed every call fails with a 401 naming the listed renewal tool, and after it the same call gets the
     * static result (the refused calls never reached the service). (Mutations tried: the first expiry at the
     * first call; a refused call counted as reaching the service; a single expiry at every severity.)
     */
    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("dev.openagent.shift.ShiftMechanismsTest#envsAndSeverities")
    void authExpiresAtTheDocumentedCallsAndRenewalRestoresAccess(String envId, int severity) {
        Env env = shifted(envId, "obs.auth-expiry:severity=" + severity);
        int expiries = 0;
        for (StaticCalls.Driven d : StaticCalls.under(Environments.get(envId), env, EPISODES)) {
            StaticCalls s = d.statics();
            Start start = d.start();
            ToolSpec renew = start.tools().stream().filter(t -> t.name().equals("renew_session")).findFirst().orElseThrow();
            assertTrue(renew.parameters().path("properties").isEmpty() && renew.description().startsWith("Renews an expired session."), renew.toString());
            List<Integer> expired = new ArrayList<>();
            int reached = 0;
            for (StaticCalls.Call c : s.calls()) {
                Observation o = call(env, c);
                if (o.isError() && o.error().message().startsWith("401 Unauthorized")) {
                    expired.add(reached);
                    assertTrue(o.text().contains("Call renew_session to renew access"), o.text());
                    Observation again = call(env, c);
                    assertTrue(again.isError() && again.error().message().startsWith("401 Unauthorized"), "every call fails until renewed: " + again.text());
                    Observation renewed = call(env, "renew_session", "{}");
                    assertEquals("renewed", renewed.payload().path("status").asText(), renewed.text());
                    o = call(env, c);
                }
                assertEquals(c.result().text(), o.text(), envId + " " + c.tool() + ": after renewal the call succeeds as it did");
                reached++;
            }
            int first = s.task().plan().calls().size() > 1 ? 1 : 0;
            List<Integer> schedule = new ArrayList<>();
            for (int k = 0; k < severity; k++) if (first + 2 * k < s.calls().size()) schedule.add(first + 2 * k);
            assertEquals(schedule, expired, envId + " " + d.request() + ": expiries at these calls reaching the service (" + s.calls().size() + " calls)");
            expiries += expired.size();
        }
        assertTrue(expiries >= EPISODES, envId + ": " + expiries + " expiries in " + EPISODES + " episodes");
    }
}
