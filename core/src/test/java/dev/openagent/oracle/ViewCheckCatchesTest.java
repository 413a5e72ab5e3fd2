package dev.openagent.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.Tier;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the view check exists for: shifts that destroy information a task needs while staying consistent. Each
 * broken shift below keeps the oracle's guide working (it reads what the layer kept), so the oracle still solves
 * every task; the view-only solver must fail exactly the tasks that needed the destroyed information, and say what
 * was missing. Per task, not in aggregate.
 */
class ViewCheckCatchesTest {

    private static final int TASKS = 40;

    /** A test shift outside the catalog: it declares no allowance. */
    private static Shift brokenShift(String id, java.util.function.BiFunction<Env, Map<String, String>, Env> factory) {
        return new Shift(id, Tier.PERCEPTION, Dimension.O, "a broken shift (test)", List.of(), factory);
    }

    /** Drops every "..._id" field from tool results (what obs.format would do if it lost a field). */
    static final class DropIds extends ShiftEnv<Void> {
        static final Shift SHIFT = brokenShift("broken.drop-ids", DropIds::new);

        DropIds(Env inner, Map<String, String> params) { super(inner, SHIFT, params); }

        @Override
        protected Observation observation(Observation o) {
            if (o.isError() || o.payload() == null || !o.payload().isContainerNode()) return o;
            JsonNode v = strip(o.payload().deepCopy());
            return o.withPayload(v, Json.write(v));
        }

        private static JsonNode strip(JsonNode v) {
            if (v instanceof ObjectNode obj) {
                List<String> ids = new ArrayList<>();
                obj.fieldNames().forEachRemaining(k -> { if (k.endsWith("_id")) ids.add(k); });
                obj.remove(ids);
                obj.forEach(ViewCheckCatchesTest.DropIds::strip);
            } else if (v.isArray()) {
                v.forEach(DropIds::strip);
            }
            return v;
        }
    }

    /** Changes a digit of every word with a digit in the request (what query.noise would do if it touched ids). */
    static final class TypoIds extends ShiftEnv<Void> {
        static final Shift SHIFT = brokenShift("broken.typo-ids", TypoIds::new);

        TypoIds(Env inner, Map<String, String> params) { super(inner, SHIFT, params); }

        @Override
        protected Start begin(Start in) {
            StringBuilder q = new StringBuilder();
            for (String w : in.query().split(" ", -1)) {
                if (!q.isEmpty()) q.append(' ');
                q.append(w.chars().anyMatch(Character::isDigit) ? typo(w) : w);
            }
            return in.withQuery(q.toString());
        }

        static String typo(String w) {
            char[] c = w.toCharArray();
            for (int i = c.length - 1; i >= 0; i--) {
                if (Character.isDigit(c[i])) {
                    c[i] = (char) ('0' + (c[i] - '0' + 1) % 10);
                    break;
                }
            }
            return new String(c);
        }
    }

    /** Moves each tool's description to the next tool, names kept (what tool.semantic-trap would do if descriptions lied). */
    static final class LyingDescriptions extends ShiftEnv<Void> {
        static final Shift SHIFT = brokenShift("broken.lying-descriptions", LyingDescriptions::new);

        LyingDescriptions(Env inner, Map<String, String> params) { super(inner, SHIFT, params); }

        @Override
        protected Start begin(Start in) {
            List<ToolSpec> tools = in.tools().stream().filter(t -> !t.name().equals("ask_user")).toList();
            List<ToolSpec> out = new ArrayList<>();
            for (int i = 0; i < tools.size(); i++) out.add(tools.get(i).withDescription(tools.get((i + 1) % tools.size()).description()));
            in.tools().stream().filter(t -> t.name().equals("ask_user")).forEach(out::add);
            return in.withTools(out);
        }
    }

    /**
     * Retires every tool under a new opaque name whose listing says nothing (what obs.redirect would do if its
     * reply named no replacement): the old name answers 410 and names nothing.
     */
    static final class SilentRetirement extends ShiftEnv<Map<String, String>> {
        static final Shift SHIFT = brokenShift("broken.silent-retirement", SilentRetirement::new);

        SilentRetirement(Env inner, Map<String, String> params) { super(inner, SHIFT, params, HashMap::new); }

        @Override
        protected Start begin(Start in) {
            List<ToolSpec> out = new ArrayList<>();
            int i = 0;
            for (ToolSpec t : in.tools()) {
                out.add(t);
                if (t.name().equals("ask_user")) continue;
                String r = "svc_" + (i++);
                ep.put(t.name(), r);
                out.add(new ToolSpec(r, "Service endpoint.", t.parameters()));
            }
            return in.withTools(out);
        }

        @Override
        protected Route route(Action.ToolCall call) {
            if (ep.containsKey(call.name())) return new Reply(error(call, ToolError.Code.UNAVAILABLE, "410 Gone: this tool was retired."));
            for (var e : ep.entrySet()) {
                if (e.getValue().equals(call.name())) return new Forward(new Action.ToolCall(call.id(), e.getKey(), call.arguments()));
            }
            return new Forward(call);
        }

        @Override
        public dev.openagent.sandbox.Guide guide() {
            return dev.openagent.shift.LayerGuide.translating(inner.guide(), this,
                    a -> a instanceof Action.CallTools c ? dev.openagent.shift.LayerGuide.renamed(c, ep) : a);
        }
    }

    /**
     * Whether the task's plan reads an id field from an earlier result that the request does not already say: the
     * static episode's results (the tool messages of the oracle's static run, in order) give the value.
     */
    private static boolean readsAnUnsaidId(Environment environment, TaskRequest r, Task shifted) {
        Env env = environment.create();
        Trajectory t = Episodes.run(env, new OracleAgent(), r);
        Task task = env.task();
        List<JsonNode> results = new ArrayList<>();
        t.messages().stream().filter(m -> "tool".equals(m.role())).forEach(m -> results.add(Json.parse(m.content())));
        for (GoldPlan.Call c : task.plan().calls()) {
            for (GoldPlan.Ref ref : c.refs().values()) {
                if (!ref.pointer().endsWith("_id") || ref.call() >= results.size()) continue;
                String v = results.get(ref.call()).at(ref.pointer()).asText();
                if (!v.isEmpty() && !task.query().contains(v)) return true;
            }
        }
        return false;
    }

    /** Whether a word of the request with a digit is a value a tool needs. */
    private static boolean requestGivesAnIdValue(Task t) {
        Set<String> values = new java.util.HashSet<>();
        for (GoldPlan.Call c : t.plan().calls()) c.args().forEach(v -> values.add(v.asText()));
        for (String w : t.query().split("[\\s,.?!()]+")) if (w.chars().anyMatch(Character::isDigit) && values.contains(w)) return true;
        return false;
    }

    private static boolean callsATool(Task t) {
        return t.plan().calls().stream().anyMatch(c -> !c.isCommand() && !c.tool().equals("ask_user"));
    }

    /**
     * Runs both solvers on the broken shift: the oracle solves every task; the view solver fails exactly the tasks
     * {@code needs} says needed what the shift destroyed, each with a finding that says what was missing.
     */
    private static void check(String env, Shift broken, Predicate<Task> needs, String finding) {
        check(env, broken, (e, r, t) -> needs.test(t), finding);
    }

    interface Needs {
        boolean test(Environment environment, TaskRequest request, Task task);
    }

    private static void check(String env, Shift broken, Needs needs, String finding) {
        Environment environment = Environments.get(env);
        ShiftStack stack = new ShiftStack(List.of(new ShiftStack.Layer(broken, Map.of())));
        Env plain = stack.apply(environment.create());
        Env watched = ViewSolver.watched(stack, environment.create());
        int needing = 0;
        for (int i = 0; i < TASKS; i++) {
            TaskRequest r = new TaskRequest(Split.TEST, 500 + i, 0);
            Trajectory oracle = Episodes.run(plain, new OracleAgent(), r);
            assertTrue(oracle.success(), env + " " + broken.id() + ": the oracle reads what the layer kept, so it still solves " + oracle.taskId());
            Task task = plain.task();
            Trajectory view = Episodes.run(watched, new ViewSolver(), r);
            if (needs.test(environment, r, task)) {
                needing++;
                assertFalse(ViewSolver.solved(view), env + " " + broken.id() + ": " + task.id() + " needed what the shift destroyed, yet was solved from view");
                String why = ViewSolver.finding(view).orElse("");
                assertTrue(why.contains(finding), env + " " + broken.id() + " " + task.id() + ": the finding says what was missing, got: " + why);
            } else {
                assertTrue(ViewSolver.solved(view), env + " " + broken.id() + ": " + task.id() + " did not need what the shift destroyed: "
                        + ViewSolver.finding(view).orElse(view.outcome().toString()));
            }
        }
        assertTrue(needing >= 5, env + " " + broken.id() + ": too few tasks exercise the break (" + needing + ")");
    }

    @Test
    void aResultThatLosesAnIdFieldIsCaughtOnEveryTaskThatReadsIt() {
        for (String env : List.of("poi", "retail", "travel")) check(env, DropIds.SHIFT, ViewCheckCatchesTest::readsAnUnsaidId, "was never shown");
    }

    @Test
    void aRequestWhoseIdsAreMisspeltIsCaughtOnEveryTaskThatNeedsThem() {
        for (String env : List.of("retail", "medical")) check(env, TypoIds.SHIFT, ViewCheckCatchesTest::requestGivesAnIdValue, "it is part of the request");
    }

    @Test
    void descriptionsThatLieAreCaughtOnEveryTaskThatCallsATool() {
        for (String env : List.of("poi", "medical", "retail", "travel")) check(env, LyingDescriptions.SHIFT, ViewCheckCatchesTest::callsATool, "did not reach the service");
    }

    @Test
    void aRetiredToolWhoseReplacementNoOneNamesIsCaught() {
        for (String env : List.of("poi", "travel")) check(env, SilentRetirement.SHIFT, ViewCheckCatchesTest::callsATool, "did not reach the service");
    }

    @Test
    void theRealShiftsDeclareOnlyTheAllowancesTheyNeed() {
        // A shift gets knowledge from outside the episode only by declaring it: five do, and say which.
        Map<String, Set<dev.openagent.shift.Allowance>> declared = new HashMap<>();
        dev.openagent.shift.ShiftCatalog.all().forEach(s -> { if (!s.allowances().isEmpty()) declared.put(s.id(), s.allowances()); });
        assertEquals(Map.of("domain.policy-update", Set.of(dev.openagent.shift.Allowance.INPUT_FORMATS),
                "action.verification-change", Set.of(dev.openagent.shift.Allowance.JOINED_PARTS),
                "obs.format", Set.of(dev.openagent.shift.Allowance.KEY_SYNONYMS),
                "obs.schema-drift", Set.of(dev.openagent.shift.Allowance.KEY_SYNONYMS),
                "obs.type-drift", Set.of(dev.openagent.shift.Allowance.VALUE_FORMATS)), declared);
    }

    @Test
    void withoutItsAllowanceAJoinedCodeIsNotReadFromItsParts() {
        // At severity 3 every code comes in two parts, which the shift declares an agent joins. A solver that may
        // use no allowance must fail every task whose answer needs a code; the solver that honours the declaration
        // solves them all.
        ShiftStack stack = ShiftSpec.parseStack("action.verification-change:severity=3");
        Env watched = ViewSolver.watched(stack, Environments.get("poi").create());
        int coded = 0;
        for (int i = 0; i < TASKS; i++) {
            TaskRequest r = new TaskRequest(Split.TEST, 900 + i, 0);
            Trajectory strict = Episodes.run(watched, ViewSolver.withoutAllowances(), r);
            boolean needsCode = watched.task().plan().answerTemplate().contains("code}");
            Trajectory allowed = Episodes.run(watched, new ViewSolver(), r);
            assertTrue(ViewSolver.solved(allowed), ViewSolver.finding(allowed).orElse(allowed.outcome().toString()));
            if (!needsCode) {
                assertTrue(ViewSolver.solved(strict), "no code, nothing to join: " + strict.taskId());
                continue;
            }
            coded++;
            assertFalse(ViewSolver.solved(strict), "a code shown only in parts needs the declared allowance: " + strict.taskId());
            assertTrue(ViewSolver.finding(strict).orElse("").contains("never shown"), ViewSolver.finding(strict).orElse(""));
        }
        assertTrue(coded >= 5, "too few tasks need a code (" + coded + ")");
    }

    /** Takes the freshness rule out of the instructions (obs.stale-data's paragraph), leaving the answers' stamps. */
    static final class NoFreshnessRule extends ShiftEnv<Void> {
        static final Shift SHIFT = brokenShift("broken.no-freshness-rule", NoFreshnessRule::new);

        NoFreshnessRule(Env inner, Map<String, String> params) { super(inner, SHIFT, params); }

        @Override
        protected dev.openagent.sandbox.Start begin(dev.openagent.sandbox.Start in) {
            return in.withSystemPrompt(in.systemPrompt().replaceAll("(?m)^Data freshness:.*$", ""));
        }
    }

    @Test
    void withoutTheFreshnessRuleShownAStaleValueIsNotAskedForAgain() {
        // Under obs.stale-data:3 every read answer with a number or time is stale. The view check tells so from the
        // stamp and the rule the instructions state, never from the shift: with the rule out of the instructions (an
        // outer test layer; the stamps and the fresh flag stay) it must fail every task that needed an out-of-date value.
        Map<String, Integer> failures = new HashMap<>();
        for (String envId : List.of("poi", "medical")) {
            Shift stale = dev.openagent.shift.ShiftCatalog.get("obs.stale-data");
            ShiftStack withRule = new ShiftStack(List.of(new ShiftStack.Layer(stale, Map.of("severity", "3"))));
            ShiftStack without = new ShiftStack(List.of(new ShiftStack.Layer(stale, Map.of("severity", "3")), new ShiftStack.Layer(NoFreshnessRule.SHIFT, Map.of())));
            Env ruled = ViewSolver.watched(withRule, Environments.get(envId).create());
            Env unruled = ViewSolver.watched(without, Environments.get(envId).create());
            int failed = 0;
            for (int i = 0; i < TASKS; i++) {
                TaskRequest r = new TaskRequest(Split.TEST, 900 + i, 0);
                Trajectory allowed = Episodes.run(ruled, new ViewSolver(), r);
                assertTrue(ViewSolver.solved(allowed), ViewSolver.finding(allowed).orElse(allowed.outcome().toString()));
                Trajectory blind = Episodes.run(unruled, new ViewSolver(), r);
                if (ViewSolver.solved(blind)) continue;
                failed++;
                assertTrue(ViewSolver.finding(blind).orElse("").contains("never shown"), ViewSolver.finding(blind).orElse(""));
            }
            failures.put(envId, failed);
        }
        // Measured: poi 4 of 40 (its answers are mostly texts, and a number it needs is often shown elsewhere), medical more.
        assertTrue(failures.get("poi") >= 2 && failures.get("medical") >= 5, "too few tasks needed an out-of-date value: " + failures);
    }

    @Test
    void withoutItsAllowanceADriftedValueIsNotReadBack() {
        // Under obs.type-drift a time a booking takes from a free slot is shown on the 12-hour clock ("1:00 PM") and
        // the booking tool takes it on the 24-hour clock (where the request names no time). A solver that may use no allowance cannot take it from what
        // was shown; the solver that honours the declaration reads it back and solves every task.
        int timed = 0;
        for (String envId : List.of("poi", "medical")) {
            ShiftStack stack = ShiftSpec.parseStack("obs.type-drift:severity=1");
            Env watched = ViewSolver.watched(stack, Environments.get(envId).create());
            for (int i = 0; i < TASKS; i++) {
                TaskRequest r = new TaskRequest(Split.TEST, 900 + i, 0);
                Trajectory strict = Episodes.run(watched, ViewSolver.withoutAllowances(), r);
                // A time the request states is shown there on the 24-hour clock: the slot's drifted copy is then not needed.
                boolean takesATime = watched.task().plan().calls().stream().anyMatch(c -> c.refs().containsKey("time"))
                        && !watched.task().query().matches("(?s).*\\b\\d{2}:\\d{2}\\b.*");
                Trajectory allowed = Episodes.run(watched, new ViewSolver(), r);
                assertTrue(ViewSolver.solved(allowed), ViewSolver.finding(allowed).orElse(allowed.outcome().toString()));
                if (!takesATime) continue;
                timed++;
                assertFalse(ViewSolver.solved(strict), "a time shown on the 12-hour clock needs the declared allowance: " + strict.taskId());
                assertTrue(ViewSolver.finding(strict).orElse("").contains("never shown"), ViewSolver.finding(strict).orElse(""));
            }
        }
        assertTrue(timed >= 5, "too few tasks take a time from a result (" + timed + ")");
    }
}
