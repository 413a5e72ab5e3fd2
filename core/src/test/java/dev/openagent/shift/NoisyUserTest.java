package dev.openagent.shift;

import dev.openagent.episode.Episodes;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * query.noisy-user, severity by severity, on every built-in environment. What to expect is written here from the
 * shift's documented phrases ("— sorry, I meant Y, not X —", "ask me again"), not read from its code: chatter leaves the
 * static plan valid (1); corrections name the environment's own revised request once applied, and the static plan
 * fails (2); a detail left out is given only on a follow-up question (3).
 */
class NoisyUserTest {
    private static final int EPISODES = 30;
    /** " — sorry, I meant Y, not X —" after X (docs/shifts.md). */
    private static final Pattern CORRECTION = Pattern.compile(" — sorry, I meant (.+?), not (.+?) —");

    static Stream<String> envs() {
        return Stream.of("poi", "medical", "retail", "travel", "household");
    }

    @ParameterizedTest
    @MethodSource("envs")
    void severityOneChattersAroundTheRequestAndEveryAnswerAndLeavesTheStaticPlanValid(String id) {
        Env base = Environments.get(id).create();
        Env shifted = ShiftSpec.parseStack("query.noisy-user:severity=1").apply(Environments.get(id).create());
        for (int i = 0; i < EPISODES; i++) {
            TaskRequest r = StaticCalls.request(i);
            Start before = base.reset(r);
            Task task = base.task();
            Start after = shifted.reset(r);
            assertNotEquals(before.query(), after.query(), id + " " + r);
            assertTrue(after.query().contains(before.query()), "the request itself stays whole: " + after.query());
            String question = "Could you tell me the date you have in mind?";
            String plain = answer(base.step(ask(base, question)).observations());
            String chatty = answer(shifted.step(ask(shifted, question)).observations());
            assertNotEquals(plain, chatty);
            assertTrue(chatty.contains(plain), "the answer itself stays whole: " + chatty);
            assertTrue(Episodes.run(shifted, new StaticReplayAgent(task.plan()), r).success(), id + " " + r + ": chatter alone leaves the static plan valid");
        }
    }

    @ParameterizedTest
    @MethodSource("envs")
    void severityTwoCorrectsTheRequestInPlaceToTheRevisedOneAndTheStaticPlanFails(String id) {
        Env base = Environments.get(id).create();
        Env shifted = ShiftSpec.parseStack("query.noisy-user").apply(Environments.get(id).create());
        int corrected = 0;
        for (int i = 0; i < EPISODES; i++) {
            TaskRequest r = StaticCalls.request(i);
            base.reset(r);
            Task task = base.task();
            String q = shifted.reset(r).query();
            long seed = shifted.spec().shifts().getFirst().seed();
            Task meant = base.facts().revised(task, seed).orElse(null);
            if (meant == null || !task.solvable()) {
                assertFalse(q.contains("sorry, I meant"), id + ": nothing to correct to: " + q);
                continue;
            }
            corrected++;
            assertTrue(CORRECTION.matcher(q).find(), q);
            assertTrue(read(q).contains(meant.query()), id + ": once corrected the request is the revised one:\n" + q + "\n" + meant.query());
            assertEquals(meant.plan(), shifted.task().plan());
            assertFalse(Episodes.run(shifted, new StaticReplayAgent(task.plan()), r).success(), id + " " + r + ": the first values' plan fails: " + q);
        }
        assertTrue(corrected >= EPISODES * 8 / 10, id + ": " + corrected + " of " + EPISODES + " requests corrected");
    }

    @ParameterizedTest
    @MethodSource("envs")
    void severityThreeLeavesADetailForAFollowUpWhoseFirstAnswerIsOnlyHalfOne(String id) {
        Env base = Environments.get(id).create();
        Env shifted = ShiftSpec.parseStack("query.noisy-user:severity=3").apply(Environments.get(id).create());
        int held = 0;
        for (int i = 0; i < EPISODES; i++) {
            TaskRequest r = StaticCalls.request(i);
            base.reset(r);
            Task task = base.task();
            shifted.reset(r);
            Map<String, String> added = shifted.task().userFacts().entrySet().stream().filter(e -> !e.getValue().equals(task.userFacts().get(e.getKey())))
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
            if (added.isEmpty()) continue;
            held++;
            assertEquals(1, added.size(), added.toString());
            var fact = added.entrySet().iterator().next();
            String question = "Could you tell me the " + fact.getKey().split("\\|")[0] + " you have in mind?";
            String first = answer(shifted.step(ask(shifted, question)).observations());
            assertFalse(first.contains(fact.getValue()), first);
            assertTrue(first.contains("ask me again"), first);
            String second = answer(shifted.step(ask(shifted, question)).observations());
            assertTrue(second.contains(fact.getValue()), "the follow-up gets it: " + second);
            if (!shifted.task().plan().equals(task.plan())) {
                assertFalse(Episodes.run(shifted, new StaticReplayAgent(task.plan()), r).success(), id + " " + r);
            }
        }
        assertTrue(held >= EPISODES * 8 / 10, id + ": " + held + " of " + EPISODES + " requests held a detail back");
    }

    @Test
    void theCorrectionsOfARequestReadAsWrittenHere() {
        assertEquals("I need the phone number of Velvet Bell Brasserie in Eastfield.",
                read("I need the phone number of Velvet Bell Bakery — sorry, I meant Velvet Bell Brasserie, not Velvet Bell Bakery — in Thornbury"
                        + " — sorry, I meant Eastfield, not Thornbury —."));
    }

    /** The text with each correction applied: its first value, just before it, replaced by the value meant. */
    private static String read(String text) {
        Matcher m = CORRECTION.matcher(text);
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (m.find()) {
            String before = text.substring(at, m.start());
            assertTrue(before.endsWith(m.group(2)), "the value corrected stands just before its correction: " + text);
            out.append(before, 0, before.length() - m.group(2).length()).append(m.group(1));
            at = m.end();
        }
        return out.append(text.substring(at)).toString();
    }

    private static Action ask(Env env, String question) {
        return env.info().iface() == Interface.TEXT_COMMAND ? new Action.Command(Protocol.ASK_COMMAND + " " + question)
                : Action.CallTools.of("q", Protocol.ASK_USER, Json.write(Json.object("question", question)));
    }

    private static String answer(java.util.List<Observation> observations) {
        return observations.stream().map(Observation::text).collect(Collectors.joining("\n"));
    }
}
