package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * obs.type-drift, on every function-call environment at every severity: every value of every result is written as
 * the shift's documentation says for its severity (the expected forms are written here from that documentation, not
 * from the shift's code), one form per kind for the whole episode; and a static plan that copies a time from a result
 * into the next call is refused by that tool, whose schema asks for the 24-hour clock. That the view check still
 * solves every task is ShiftOracleTest's; that it needs the declared allowance to, ViewCheckCatchesTest's.
 * (Mutations tried: leaving times alone at severity 1, 4 failures (poi, medical and travel at severity 1, and the
 * refused-time test); writing 4.9 as "4.9" at severity 2, 2 (poi at severities 2 and 3); not flattening at severity
 * 3, 1 (poi at severity 3: only poi's place details nest objects). Reading no drifted value back in the view solver
 * fails ViewCheckCatchesTest's allowance test: "the value '20:00' for check_availability.time was never shown".)
 */
class TypeDriftTest {
    private static final int EPISODES = 12;
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
            "October", "November", "December"};

    static Stream<Arguments> envsAndSeverities() {
        return ShiftsBiteTest.functionCall().stream().flatMap(e -> Stream.of(1, 2, 3).map(s -> Arguments.of(e, s)));
    }

    @ParameterizedTest(name = "{0} severity {1}")
    @MethodSource("envsAndSeverities")
    void everyValueIsWrittenAsItsSeveritySays(String envId, int severity) {
        Environment environment = Environments.get(envId);
        int changed = 0, results = 0;
        Set<String> kinds = new java.util.TreeSet<>();
        for (int i = 0; i < EPISODES; i++) {
            TaskRequest r = StaticCalls.request(i);
            StaticCalls plain = StaticCalls.of(environment, r);
            Env shifted = ShiftSpec.parseStack("obs.type-drift:severity=" + severity).apply(environment.create());
            shifted.reset(r);
            Forms forms = new Forms(severity);
            for (StaticCalls.Call c : plain.calls()) {
                Step s = shifted.step(new Action.CallTools(List.of(c.call())));
                Observation after = s.observations().stream().filter(o -> c.call().id().equals(o.callId())).findFirst().orElseThrow();
                if (c.result().isError() || c.payload() == null) {
                    assertEquals(c.result().text(), after.text(), "errors pass unchanged");
                    continue;
                }
                results++;
                List<String> problems = new ArrayList<>();
                forms.compare(c.payload(), after.payload(), "", problems, kinds);
                assertTrue(problems.isEmpty(), envId + " severity " + severity + " " + c.tool() + ": " + problems + "\nbefore " + c.payload() + "\nafter  " + after.payload());
                assertEquals(dev.openagent.json.Json.parse(after.text()), after.payload(), "the text is the payload");
                if (!after.text().equals(c.result().text())) changed++;
            }
        }
        assertTrue(results > 0 && changed * 10 >= results * 5, envId + " severity " + severity + ": " + changed + " of " + results + " results changed");
        assertTrue(kinds.contains("number"), "numbers drifted in " + envId + ": " + kinds);
    }

    /**
     * A plan that copies a free time from a result into the booking call (poi's later times, medical's free slots)
     * sends "1:00 PM" where the tool's schema asks for the 24-hour clock, and the tool refuses it, at every severity.
     */
    @Test
    void aTimeCopiedVerbatimIntoTheNextCallIsRefused() {
        for (String envId : List.of("poi", "medical")) {
            for (int severity = 1; severity <= 3; severity++) {
                Environment environment = Environments.get(envId);
                Env shifted = ShiftSpec.parseStack("obs.type-drift:severity=" + severity).apply(environment.create());
                int copied = 0;
                for (int i = 0; i < 200 && copied < 5; i++) {
                    TaskRequest r = StaticCalls.request(i);
                    Env plain = environment.create();
                    plain.reset(r);
                    if (!passesATime(plain.task().plan())) continue;
                    copied++;
                    Trajectory t = Episodes.run(shifted, new StaticReplayAgent(), r);
                    assertFalse(t.success(), envId + " severity " + severity + " " + t.taskId());
                    String refused = t.messages().stream().filter(m -> "tool".equals(m.role())).map(Message::content)
                            .filter(x -> x.contains("time must be")).findFirst().orElse("");
                    assertTrue(refused.matches("(?s).*got '\\d{1,2}:\\d{2} [AP]M'.*"), envId + " severity " + severity + ": the tool refuses the drifted time: "
                            + t.messages().stream().filter(m -> "tool".equals(m.role())).map(Message::content).toList());
                }
                assertTrue(copied >= 5, envId + ": too few plans copy a time (" + copied + ")");
            }
        }
    }

    private static boolean passesATime(GoldPlan plan) {
        return plan.calls().stream().anyMatch(c -> c.refs().containsKey("time"));
    }

    /** The forms the documentation promises, and the one drawn for the episode where there is a choice. */
    private static final class Forms {
        final int severity;
        String dateForm;
        String joiner;

        Forms(int severity) { this.severity = severity; }

        void compare(JsonNode before, JsonNode after, String at, List<String> problems, Set<String> kinds) {
            if (before.isObject()) {
                if (after == null || !after.isObject()) {
                    problems.add(at + ": not an object");
                    return;
                }
                Map<String, JsonNode> expected = severity >= 3 ? flat(before, after) : fields(before);
                if (expected == null || !new ArrayList<>(expected.keySet()).equals(names(after))) {
                    problems.add(at + ": keys " + names(after) + ", expected " + (expected == null ? "a flattening" : expected.keySet()));
                    return;
                }
                expected.forEach((k, v) -> compare(v, after.get(k), at + "/" + k, problems, kinds));
            } else if (before.isArray()) {
                if (after == null || !after.isArray() || after.size() != before.size()) {
                    problems.add(at + ": not the same list");
                    return;
                }
                for (int i = 0; i < before.size(); i++) compare(before.get(i), after.get(i), at + "/" + i, problems, kinds);
            } else if (after == null) {
                problems.add(at + ": " + before + " is gone");
            } else {
                String want = leaf(before, after);
                if (want == null) {
                    problems.add(at + ": " + before + " became " + after);
                } else if (!want.equals("=") && !(after != null && after.isTextual() && after.asText().equals(want))) {
                    problems.add(at + ": " + before + " became " + after + ", expected \"" + want + "\"");
                } else if (!want.equals("=")) {
                    kinds.add(before.isNumber() ? "number" : before.isBoolean() ? "boolean" : "text");
                }
            }
        }

        /** The expected text of a leaf, "=" when it stays as it was, null when it did not (the episode's form aside). */
        private String leaf(JsonNode before, JsonNode after) {
            if (before.isNumber()) return severity == 1 ? before.asText() : grouped(before);
            if (before.isBoolean()) return severity == 1 ? (after.equals(before) ? "=" : null) : before.asBoolean() ? "yes" : "no";
            if (!before.isTextual()) return after.equals(before) ? "=" : null;
            String s = before.asText();
            if (s.matches("([01]\\d|2[0-3]):[0-5]\\d")) return twelveHour(s);
            if (severity >= 2 && s.matches("\\d{4}-\\d{2}-\\d{2}")) return date(s, after);
            if (severity >= 2 && s.matches("\\d{4}-\\d{2}-\\d{2}[T ]([01]\\d|2[0-3]):[0-5]\\d")) {
                String d = after.asText().substring(0, Math.max(0, after.asText().length() - 6));
                String want = date(s.substring(0, 10), dev.openagent.json.Json.NODES.textNode(d));
                return want == null ? null : want + " " + s.substring(11);
            }
            return after.equals(before) ? "=" : null;
        }

        private static String twelveHour(String hhmm) {
            int h = Integer.parseInt(hhmm.substring(0, 2));
            return (h % 12 == 0 ? 12 : h % 12) + ":" + hhmm.substring(3) + (h < 12 ? " AM" : " PM");
        }

        /** "Nov 27, 2026" or "27 November 2026", whichever the episode's first date took, and then always that one. */
        private String date(String iso, JsonNode after) {
            int y = Integer.parseInt(iso.substring(0, 4)), m = Integer.parseInt(iso.substring(5, 7)), d = Integer.parseInt(iso.substring(8, 10));
            String monthFirst = MONTHS[m - 1].substring(0, 3) + " " + d + ", " + y;
            String dayFirst = d + " " + MONTHS[m - 1] + " " + y;
            if (dateForm == null) dateForm = after.asText().equals(dayFirst) ? "day" : "month";
            return dateForm.equals("day") ? dayFirst : monthFirst;
        }

        /** Whole numbers grouped by thousands; decimal ones grouped with two decimals, or all their own where they have more. */
        private static String grouped(JsonNode n) {
            if (n.isIntegralNumber()) return String.format(java.util.Locale.ROOT, "%,d", n.bigIntegerValue());
            BigDecimal v = n.decimalValue().stripTrailingZeros();
            return String.format(java.util.Locale.ROOT, "%,." + Math.max(2, v.scale()) + "f", v);
        }

        private static Map<String, JsonNode> fields(JsonNode obj) {
            Map<String, JsonNode> out = new LinkedHashMap<>();
            obj.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }

        /** The object's fields with nested objects' fields joined into them, by the episode's joiner ("." or "_"). */
        private Map<String, JsonNode> flat(JsonNode before, JsonNode after) {
            if (joiner == null) {
                for (String j : List.of(".", "_")) {
                    Map<String, JsonNode> f = new LinkedHashMap<>();
                    flatten(before, "", j, f);
                    if (new ArrayList<>(f.keySet()).equals(names(after))) {
                        boolean nested = f.size() != before.size() || !f.keySet().equals(fields(before).keySet());
                        if (nested) joiner = j;
                        return f;
                    }
                }
                return null;
            }
            Map<String, JsonNode> f = new LinkedHashMap<>();
            flatten(before, "", joiner, f);
            return f;
        }

        private static void flatten(JsonNode obj, String prefix, String joiner, Map<String, JsonNode> out) {
            obj.properties().forEach(e -> {
                if (e.getValue().isObject() && !e.getValue().isEmpty()) flatten(e.getValue(), prefix + e.getKey() + joiner, joiner, out);
                else out.put(prefix + e.getKey(), e.getValue());
            });
        }

        private static List<String> names(JsonNode obj) {
            List<String> out = new ArrayList<>();
            obj.fieldNames().forEachRemaining(out::add);
            return out;
        }
    }
}
