package dev.openagent.envs;

import dev.openagent.registry.Environments;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** What every registered environment promises, checked over many seeds. */
class EnvironmentContractTest {
    static List<String> ids() { return Environments.ids(); }

    @Test
    void theSuiteIsRegisteredWithTheRightInterfaces() {
        assertTrue(Environments.ids().containsAll(List.of("poi", "medical", "retail", "travel", "household")), Environments.ids().toString());
        assertEquals(Interface.TEXT_COMMAND, Environments.get("household").info().iface());
        for (Environment e : Environments.all()) {
            assertTrue(e.info().difficulties().size() >= 3, e.id());
            Start start = e.create().reset(new TaskRequest(Split.TEST, 1, 0));
            if (e.info().iface() == Interface.FUNCTION_CALL) {
                assertTrue(e.info().tools().size() >= 8, e.id() + " has at least 8 tools");
                assertEquals(e.info().tools().size() + 1, start.tools().size(), "its tools and ask_user");
            } else {
                assertTrue(start.tools().isEmpty(), e.id() + ": text-command environments offer no tools");
            }
        }
    }

    /** The property behind `run --agent oracle`: 100% on every split and difficulty, without a single tool error. */
    @ParameterizedTest
    @MethodSource("ids")
    void oracleSolvesEveryTaskOfEverySplitAndDifficulty(String id) {
        Env env = Environments.get(id).create();
        OracleAgent oracle = new OracleAgent();
        Map<String, Integer> kinds = new TreeMap<>();
        int seeds = id.equals("poi") ? 50 : 250;   // poi has its own test
        for (Split split : Split.values()) {
            for (int d = 1; d <= 4; d++) {
                for (long seed = 0; seed < seeds; seed++) {
                    Trajectory t = Episodes.run(env, oracle, new TaskRequest(split, seed, d));
                    if (!t.success()) fail("oracle failed " + t.taskId() + " (" + t.kind() + "): " + t.outcome() + "\n" + t.toJson());
                    assertEquals(0, t.stats().toolErrors(), "oracle made a tool error on " + t.taskId());
                    assertEquals(d, t.difficulty());
                    kinds.merge(t.kind(), 1, Integer::sum);
                }
            }
        }
        kinds.values().forEach(n -> assertTrue(n >= 10, id + ": every kind is generated: " + kinds));
    }

    @ParameterizedTest
    @MethodSource("ids")
    void theSameRequestGivesTheSameEpisode(String id) {
        Env a = Environments.get(id).create();
        Env b = Environments.get(id).create();
        for (long seed = 0; seed < 40; seed++) {
            TaskRequest r = new TaskRequest(seed % 2 == 0 ? Split.TRAIN : Split.TEST, seed, 0);
            Start sa = a.reset(r);
            Start sb = b.reset(r);
            assertEquals(sa.query(), sb.query());
            assertEquals(a.task().plan(), b.task().plan());
            assertEquals(a.task().expect(), b.task().expect());
            Trajectory ta = Episodes.run(a, new OracleAgent(), r);
            Trajectory tb = Episodes.run(b, new OracleAgent(), r);
            assertEquals(ta.messages(), tb.messages(), "episodes replay bit for bit");
        }
    }

    @ParameterizedTest
    @MethodSource("ids")
    void detailsAreSpansOfTheQueryAndSomeDisambiguate(String id) {
        Env env = Environments.get(id).create();
        int ambiguous = 0;
        int tasks = 0;
        for (long seed = 0; seed < 200; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            Task t = env.task();
            tasks++;
            for (Detail d : t.details()) {
                assertTrue(t.query().contains(d.span()), id + ": span '" + d.span() + "' in " + t.query());
                assertFalse(d.keywords().isBlank());
                assertFalse(d.reply().isBlank());
                if (d.ambiguousWithout()) ambiguous++;
            }
        }
        assertTrue(ambiguous > tasks / 5, id + ": worlds have twins, so many details disambiguate (" + ambiguous + " of " + tasks + " tasks)");
    }

    /** Fuzzing: malformed, oversized, empty and nonsensical input of every kind never throws out of step. */
    @ParameterizedTest
    @MethodSource("ids")
    void badInputNeverThrowsOutOfStep(String id) {
        Env env = Environments.get(id).create();
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
        int errors = 0;
        for (long seed = 0; seed < 60; seed++) {
            Start start = env.reset(new TaskRequest(seed % 2 == 0 ? Split.TRAIN : Split.TEST, seed, 0));
            List<String> words = new java.util.ArrayList<>(List.of(start.query().split(" ")));
            words.addAll(List.of("", " ", "\u0000", "{", "null", "-1", "99999999999999999999", "x".repeat(20_000), "é漢字", "\"", "[]"));
            for (int i = 0; i < 25; i++) {
                String w1 = words.get(rnd.nextInt(words.size()));
                String w2 = words.get(rnd.nextInt(words.size()));
                Action a = switch (rnd.nextInt(6)) {
                    case 0 -> new Action.Command(w1 + " " + w2);
                    case 1 -> new Action.Command(rnd.nextBoolean() ? "" : w1);
                    case 2 -> Action.CallTools.of("c" + i, start.tools().isEmpty() ? w1 : start.tools().get(rnd.nextInt(start.tools().size())).name(),
                            rnd.nextBoolean() ? w2 : "{\"" + w1 + "\": \"" + w2 + "\"}");
                    case 3 -> Action.CallTools.of("c" + i, w1, "{\"name\": 3, \"patient_id\": [1], \"date\": {}}");
                    case 4 -> new Action.AskUser(w1);
                    default -> {
                        String verb = List.of("take", "put", "open", "go to", "heat", "cool", "clean", "examine", "close").get(rnd.nextInt(9));
                        yield new Action.Command(verb + " " + w1 + (rnd.nextBoolean() ? " in " : " with ") + w2);
                    }
                };
                Step s = env.step(a);
                assertFalse(s.observations().isEmpty(), id + ": " + a + " got no observation");
                for (var o : s.observations()) {
                    assertFalse(o.text().isBlank(), id + ": " + a + " got an empty observation");
                    if (o.isError()) errors++;
                }
                if (s.done()) break;
            }
        }
        assertTrue(errors > 60 * 5, id + ": the junk is answered with error observations (" + errors + ")");
    }

    @ParameterizedTest
    @MethodSource("ids")
    void wrongKindsOfActionAreErrorsNotCrashes(String id) {
        Env env = Environments.get(id).create();
        env.reset(new TaskRequest(Split.TEST, 3, 2));
        boolean text = env.info().iface() == Interface.TEXT_COMMAND;
        Step s = text ? env.step(Action.CallTools.of("c1", "search", "{}")) : env.step(new Action.Command("go to kitchen"));
        assertTrue(s.observations().getFirst().isError());
        assertFalse(s.done());
        Step asked = env.step(new Action.AskUser("what do you mean?"));
        assertFalse(asked.done());
        Step end = env.step(new Action.Answer("no idea"));
        assertTrue(end.done());
        assertFalse(end.outcome().success());
        Step after = env.step(new Action.Answer("again"));
        assertTrue(after.done(), "stepping after the end keeps reporting the end");
    }

    @ParameterizedTest
    @MethodSource("ids")
    void refusingASolvableTaskFails(String id) {
        Env env = Environments.get(id).create();
        env.reset(new TaskRequest(Split.TRAIN, 5, 1));
        Step s = env.step(new Action.Refuse("cannot"));
        assertFalse(s.outcome().success());
    }

    @Test
    void everyKindHasADifficulty() {
        Set<String> seen = new java.util.HashSet<>();
        Map<String, Integer> byKind = new HashMap<>();
        for (String id : List.of("medical", "retail", "travel", "household")) {
            Env env = Environments.get(id).create();
            for (long seed = 0; seed < 100; seed++) {
                env.reset(new TaskRequest(Split.TRAIN, seed, 0));
                Task t = env.task();
                seen.add(id + "/" + t.kind());
                Integer before = byKind.put(id + "/" + t.kind(), t.difficulty());
                if (before != null) assertEquals(before, t.difficulty(), "a kind belongs to one difficulty");
            }
        }
        assertTrue(seen.size() > 30, "many kinds across the suite: " + seen);
    }
}
