package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.openagent.envs.EnvTesting.command;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shifts over a text-command environment: its verbs are its tools, its prose its observations. */
class TextCommandShiftsTest {
    static final Environment HOUSEHOLD = Environments.get("household");
    static final String LOOK_LINE = "describe the room you are in";

    /** The verb a help text lists for the command described as {@code description}. */
    static String verbFor(String help, String description) {
        for (String line : help.split("\n")) {
            if (!line.endsWith(description)) continue;
            String usage = line.strip().substring(0, line.strip().indexOf("  ")).strip();
            return usage.contains(" <") ? usage.substring(0, usage.indexOf(" <")) : usage;
        }
        throw new AssertionError("no line for " + description + " in\n" + help);
    }

    @ParameterizedTest
    @ValueSource(strings = {"tool.name-noise:severity=1", "tool.name-noise:severity=3", "tool.identity-erasure", "tool.semantic-rename:severity=1",
            "tool.semantic-rename:severity=3"})
    void renamingShiftsRenameTheVerbsHelpListsAndMapThemBack(String spec) {
        Env base = HOUSEHOLD.create();
        Env env = ShiftSpec.parseStack(spec).apply(HOUSEHOLD.create());
        for (long seed = 0; seed < 15; seed++) {
            TaskRequest r = new TaskRequest(Split.TEST, seed, 0);
            base.reset(r);
            env.reset(r);
            String help = command(env, "help").text();
            assertNotEquals(command(base, "help").text(), help, spec);
            assertTrue(help.contains("  " + Protocol.ASK_COMMAND + " <question>"), "ask is never renamed");
            String look = verbFor(help, LOOK_LINE);
            assertNotEquals("look", look, spec);
            assertEquals(command(base, "look").text(), command(env, look).text(), "the renamed verb does what look does");
            Observation familiar = command(env, "look");
            assertTrue(familiar.isError() && familiar.error().code() == ToolError.Code.UNKNOWN_TOOL, spec + ": the familiar verb is gone: " + familiar.text());
            assertTrue(familiar.text().contains("Type 'help'"), familiar.text());
            for (String verb : List.of("go to", "take", "put", "open")) {
                assertFalse(help.contains("\n  " + verb + " "), spec + ": " + verb + " is not listed as it was\n" + help);
            }
        }
    }

    @Test
    void aSemanticTrapGivesVerbsEachOthersNamesWithTruthfulDescriptions() {
        Env env = ShiftSpec.parseStack("tool.semantic-trap").apply(HOUSEHOLD.create());
        env.reset(new TaskRequest(Split.TEST, 4, 0));
        String help = command(env, "help").text();
        String look = verbFor(help, LOOK_LINE);
        assertNotEquals("look", look);
        assertTrue(HOUSEHOLD.info().tools().contains(look), "the name is another real verb: " + look);
        assertTrue(command(env, look).text().startsWith("You are in the hallway."), "and it does what the description says");
    }

    @Test
    void theOracleSpeaksTheRenamedVerbsAndQuotedUsagesAreRenamedToo() {
        Env env = ShiftSpec.parseStack("tool.identity-erasure").apply(HOUSEHOLD.create());
        Trajectory t = Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, 11, 1));
        assertTrue(t.success(), t.outcome().toString());
        Set<String> base = Set.copyOf(HOUSEHOLD.info().tools());
        for (var m : t.messages()) {
            if (!m.role().equals("assistant") || m.content() == null || m.content().startsWith(Protocol.FINAL_ANSWER) || m.content().equals("help")) continue;
            assertTrue(m.content().startsWith("fn "), "opaque verbs only: " + m.content());
            assertFalse(base.stream().anyMatch(v -> !v.equals("help") && m.content().startsWith(v + " ")), m.content());
        }
        env.reset(new TaskRequest(Split.TEST, 11, 1));
        String take = verbFor(command(env, "help").text(), "pick a thing up (you can hold one thing at a time)");
        String reply = command(env, take).text();
        assertTrue(reply.contains("'" + take + " <thing> from <furniture>'"), "the usage it quotes uses the shown verb: " + reply);
    }

    @Test
    void toolRemovalTakesVerbsTheTaskDoesNotUseOutOfHelp() {
        Env env = ShiftSpec.parseStack("tool.removal:severity=3").apply(HOUSEHOLD.create());
        for (long seed = 0; seed < 15; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 1));
            String help = command(env, "help").text();
            List<String> gone = new ArrayList<>();
            for (String verb : TextVerbs.verbs(HOUSEHOLD.info())) if (!help.contains("\n  " + verb + " ")) gone.add(verb);
            assertEquals(3, gone.size(), help);
            Observation o = command(env, gone.getFirst() + " something");
            assertEquals(ToolError.Code.UNKNOWN_TOOL, o.error().code(), o.text());
        }
    }

    @Test
    void observationFormatsRenderTheProseSentenceBySentence() {
        Env base = HOUSEHOLD.create();
        Env env = ShiftSpec.parseStack("obs.format:format=xml,severity=1").apply(HOUSEHOLD.create());
        TaskRequest r = new TaskRequest(Split.TEST, 5, 1);
        base.reset(r);
        env.reset(r);
        String prose = command(base, "look").text();
        String xml = command(env, "look").text();
        assertTrue(xml.startsWith("<result>") && xml.contains("<text>You are in the hallway.</text>"), xml);
        Trajectory t = Episodes.run(env, new OracleAgent(), r);
        assertTrue(t.success(), "the payload behind the prose (the completion code) is kept");
        assertTrue(prose.startsWith("You are in the hallway."));
        Env yaml = ShiftSpec.parseStack("obs.format:format=yaml,severity=3").apply(HOUSEHOLD.create());
        yaml.reset(r);
        assertTrue(command(yaml, "look").text().contains("- "), "a YAML list of sentences");
    }

    @Test
    void transientFailuresOfCommandsReadAsPlainWordsAndRetryingWorks() {
        Env env = ShiftSpec.parseStack("obs.runtime-error:severity=3").apply(HOUSEHOLD.create());
        int busy = 0;
        for (long seed = 0; seed < 10; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 1));
            for (int i = 0; i < 6; i++) {
                Observation o = command(env, "look");
                if (o.isError()) {
                    busy++;
                    assertEquals(ToolError.Code.TRANSIENT, o.error().code());
                    assertTrue(o.text().startsWith("Nothing happens: the system is busy") && o.text().endsWith("Try the same command again."), o.text());
                }
            }
        }
        assertTrue(busy > 5, "failures happen: " + busy);
    }

    @Test
    void unsolvableHouseholdRequestsAreRefusedWithAReasonFromTheHouse() {
        Env env = ShiftSpec.parseStack("task.unsolvable").apply(HOUSEHOLD.create());
        Set<String> reasons = new java.util.TreeSet<>();
        for (long seed = 0; seed < 80; seed++) {
            Trajectory t = Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, seed, 0));
            assertTrue(t.success() && t.outcome().refused(), t.taskId());
            String reason = env.task().plan().answerTemplate();
            reasons.add(reason.startsWith("This house has no") ? "no room" : reason.startsWith("There is no") && reason.contains(" in the ")
                    && !reason.contains(" nor ") ? "no furniture" : reason.contains(" nor anywhere") || reason.endsWith("in this house.") ? "no thing" : reason);
        }
        assertEquals(Set.of("no room", "no furniture", "no thing"), reasons);
    }

    @Test
    void anEndingWrittenAsAMessageEndsATextEpisodeThroughEveryLayer() {
        Env env = ShiftSpec.parseStack("task.unsolvable+obs.runtime-error:severity=3+tool.semantic-rename").apply(HOUSEHOLD.create());
        env.reset(new TaskRequest(Split.TEST, 2, 0));
        Step s = env.step(new Action.Command("CANNOT COMPLETE: that is not in this house"));
        assertTrue(s.done() && s.outcome().success() && s.outcome().end() == Outcome.End.REFUSED, s.outcome().toString());
        env.reset(new TaskRequest(Split.TEST, 2, 0));
        s = env.step(new Action.Command("FINAL ANSWER: done"));
        assertTrue(s.done() && !s.outcome().success() && s.outcome().end() == Outcome.End.ANSWERED, "an answer to an unsolvable task fails");
    }
}
