package dev.openagent.domain;

import dev.openagent.envs.poi.PoiDomain;
import dev.openagent.episode.Conversation;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.SimulatedUser;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input never throws out of step: each case is a clear error observation, counted as a tool error. */
class DomainEnvBadInputTest {
    private DomainEnv<?> env;
    private Start start;

    @BeforeEach
    void reset() {
        env = new DomainEnv<>(PoiDomain.DOMAIN, 10);
        start = env.reset(new TaskRequest(Split.TRAIN, 5, 1));
    }

    private Observation call(String tool, String args) {
        Step s = env.step(Action.CallTools.of("c1", tool, args));
        assertFalse(s.done());
        assertEquals(1, s.observations().size());
        Observation o = s.observations().getFirst();
        assertEquals("c1", o.callId());
        return o;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "unknown tool            | no_such_tool      | {}                                        | UNKNOWN_TOOL        | no tool named 'no_such_tool'",
            "empty tool name         | ``                | {}                                        | UNKNOWN_TOOL        | no tool named",
            "truncated JSON          | get_place_details | {\"place_id\": \"P1                       | MALFORMED_ARGUMENTS | not valid JSON",
            "not JSON                | get_place_details | place P1234                               | MALFORMED_ARGUMENTS | not valid JSON",
            "JSON array              | get_place_details | [\"P1234\"]                               | MALFORMED_ARGUMENTS | must be a JSON object",
            "JSON string             | get_place_details | \"P1234\"                                 | MALFORMED_ARGUMENTS | must be a JSON object",
            "wrong type string       | get_place_details | {\"place_id\": 1234}                      | INVALID_ARGUMENTS   | 'place_id' must be a string",
            "wrong type integer      | check_availability| {\"place_id\":\"P1\",\"date\":\"2026-12-08\",\"time\":\"12:00\",\"party_size\":\"two\"} | INVALID_ARGUMENTS | 'party_size' must be an integer",
            "fractional integer      | check_availability| {\"place_id\":\"P1\",\"date\":\"2026-12-08\",\"time\":\"12:00\",\"party_size\":2.5} | INVALID_ARGUMENTS | 'party_size' must be an integer",
            "out of range            | check_availability| {\"place_id\":\"P1\",\"date\":\"2026-12-08\",\"time\":\"12:00\",\"party_size\":99} | INVALID_ARGUMENTS | 'party_size' must be <= 20",
            "wrong enum value        | get_opening_hours | {\"place_id\":\"P1\",\"day\":\"funday\"}   | INVALID_ARGUMENTS   | 'day' must be one of",
            "wrong type number       | search_places     | {\"min_rating\": \"high\"}                | INVALID_ARGUMENTS   | 'min_rating' must be a number",
            "missing parameter       | get_place_details | {}                                        | INVALID_ARGUMENTS   | missing required parameter 'place_id'",
            "extra parameter         | get_place_details | {\"place_id\":\"P1\",\"verbose\":true}    | INVALID_ARGUMENTS   | unknown parameter 'verbose'",
            "unknown id              | get_place_details | {\"place_id\":\"P0000\"}                  | DOMAIN              | no place with id 'P0000'",
    })
    void badCallsBecomeErrorObservations(String name, String tool, String args, ToolError.Code code, String message) {
        Observation o = call(tool, args);
        assertTrue(o.isError(), name);
        assertEquals(code, o.error().code(), name);
        assertTrue(o.text().contains(message), name + ": " + o.text());
        assertTrue(o.text().startsWith("Error [" + code + "]"), o.text());
    }

    @Test
    void oversizedStringsAndArgumentsAreRefused() {
        Observation longValue = call("get_place_details", "{\"place_id\":\"" + "P".repeat(5000) + "\"}");
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, longValue.error().code());
        assertTrue(longValue.text().contains("too long"), longValue.text());
        Observation huge = call("get_place_details", "{\"place_id\":\"" + "P".repeat(DomainEnv.MAX_ARGUMENT_CHARS) + "\"}");
        assertEquals(ToolError.Code.INVALID_ARGUMENTS, huge.error().code());
        assertTrue(huge.text().contains("arguments are too long"), huge.text());
    }

    @Test
    void severalProblemsAreNamedTogether() {
        Observation o = call("check_availability", "{\"place_id\":7,\"bogus\":1}");
        assertTrue(o.text().contains("'place_id' must be a string"), o.text());
        assertTrue(o.text().contains("unknown parameter 'bogus'"), o.text());
        assertTrue(o.text().contains("missing required parameter 'date'"), o.text());
    }

    @Test
    void blankArgumentsMeanNoArguments() {
        Observation o = call("search_places", "");
        assertFalse(o.isError(), o.text());
    }

    @Test
    void aTextCommandInAFunctionCallEnvironmentIsAnError() {
        Step s = env.step(new Action.Command("go to kitchen"));
        assertFalse(s.done());
        assertEquals(ToolError.Code.UNSUPPORTED_ACTION, s.observations().getFirst().error().code());
    }

    @Test
    void askUserWorksAsATool_andAsAnAction() {
        Observation viaTool = call(Protocol.ASK_USER, "{\"question\":\"what is the weather?\"}");
        assertFalse(viaTool.isError());
        assertEquals(SimulatedUser.DONT_KNOW, viaTool.text());
        Observation malformed = call(Protocol.ASK_USER, "{not json");
        assertFalse(malformed.isError(), "a malformed question is still a question");
        Step s = env.step(new Action.AskUser("anything?"));
        assertEquals(Observation.Source.USER, s.observations().getFirst().source());
    }

    @Test
    void errorsAreCountedAsToolErrorsInTheTrajectoryStats() {
        Conversation c = new Conversation(start);
        Action bad = new Action.CallTools(List.of(
                new Action.ToolCall("a", "nope", "{}"),
                new Action.ToolCall("b", "get_place_details", "{"),
                new Action.ToolCall("c", "search_places", "{}")));
        c.add(bad);
        c.add(env.step(bad));
        var stats = c.stats(Usage.NONE);
        assertEquals(3, stats.toolCalls());
        assertEquals(2, stats.toolErrors());
        assertEquals(1, stats.errorCodes().get("UNKNOWN_TOOL"));
        assertEquals(1, stats.errorCodes().get("MALFORMED_ARGUMENTS"));
    }

    @Test
    void theEpisodeGoesOnToTheStepLimit() {
        Step s = null;
        for (int i = 0; i < 10; i++) {
            s = env.step(Action.CallTools.of("c" + i, "nope", "{"));
            if (i < 9) assertFalse(s.done());
        }
        assertTrue(s.done());
        assertEquals(Outcome.End.STEP_LIMIT, s.outcome().end());
        assertFalse(s.outcome().success());
        Step after = env.step(new Action.Answer("late"));
        assertTrue(after.done(), "steps after the end repeat the outcome");
        assertEquals(Outcome.End.STEP_LIMIT, after.outcome().end());
    }

    @Test
    void grantedTurnsMoveTheLimitForThisEpisodeOnly() {
        env.grantTurns(2);
        Step s = null;
        for (int i = 0; i < 12; i++) {
            s = env.step(Action.CallTools.of("c" + i, "nope", "{"));
            if (i < 11) assertFalse(s.done(), "turn " + (i + 1) + " of 10 + 2 granted");
        }
        assertEquals(Outcome.End.STEP_LIMIT, s.outcome().end());
        assertEquals("step limit of 12 reached", s.outcome().detail());
        env.reset(new TaskRequest(Split.TRAIN, 5, 1));
        for (int i = 0; i < 10; i++) s = env.step(Action.CallTools.of("d" + i, "nope", "{"));
        assertTrue(s.done(), "a new episode starts with the limit alone");
        assertThrows(IllegalArgumentException.class, () -> env.grantTurns(-1));
    }

    @Test
    void aGrantOnAnEnvironmentWithoutALimitKeepsItWithout() {
        // The shift proxy serves a session with no step limit (Integer.MAX_VALUE): a grant must not wrap it negative.
        var unlimited = new DomainEnv<>(PoiDomain.DOMAIN, Integer.MAX_VALUE);
        unlimited.reset(new TaskRequest(Split.TRAIN, 5, 1));
        unlimited.grantTurns(1);
        unlimited.grantTurns(Integer.MAX_VALUE);
        for (int i = 0; i < 5; i++) assertFalse(unlimited.step(Action.CallTools.of("c" + i, "nope", "{")).done(), "turn " + (i + 1));
    }

    @Test
    void stepBeforeResetIsAProgrammingError() {
        var fresh = new DomainEnv<>(PoiDomain.DOMAIN);
        assertThrows(IllegalStateException.class, () -> fresh.step(new Action.Answer("x")));
    }

    @Test
    void anUnknownDifficultyIsRejectedWithTheLevels() {
        var e = assertThrows(IllegalArgumentException.class, () -> env.reset(new TaskRequest(Split.TRAIN, 1, 9)));
        assertTrue(e.getMessage().contains("[1, 2, 3, 4]"), e.getMessage());
        assertNull(null);
    }
}
