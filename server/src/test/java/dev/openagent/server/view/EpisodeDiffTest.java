package dev.openagent.server.view;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.openagent.server.view.EpisodeDiff.ToolChange.DESCRIPTION;
import static dev.openagent.server.view.EpisodeDiff.ToolChange.ONLY_SHIFTED;
import static dev.openagent.server.view.EpisodeDiff.ToolChange.ONLY_STATIC;
import static dev.openagent.server.view.EpisodeDiff.ToolChange.RENAMED;
import static dev.openagent.server.view.EpisodeDiff.ToolChange.SAME;
import static dev.openagent.server.view.EpisodeDiff.ToolChange.SCHEMA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The static-vs-shifted alignment, one case per way two episodes can differ. */
class EpisodeDiffTest {
    static ObjectNode schema(String... params) {
        ObjectNode s = Json.object().put("type", "object");
        ObjectNode props = s.putObject("properties");
        for (String p : params) props.putObject(p).put("type", "string");
        return s;
    }

    static final ToolSpec SEARCH = new ToolSpec("search_places", "Search places.", schema("query"));
    static final ToolSpec DETAILS = new ToolSpec("get_place_details", "Details of a place.", schema("place_id"));

    static Message call(String tool, String args) {
        return Message.assistantCalls(List.of(Message.ToolCall.of("c", tool, args)));
    }

    static Trajectory episode(List<ToolSpec> tools, String request, Message... turns) {
        List<Message> messages = new ArrayList<>(List.of(Message.system("rules"), Message.user(request)));
        messages.addAll(List.of(turns));
        return new Trajectory("poi", "t1", "test", 1, 1, "k", true, List.of(), "a", tools, messages,
                new Outcome(true, Outcome.End.ANSWERED, ""), new Stats(1, 1, 0, java.util.Map.of(), 0, 0));
    }

    @Test
    void aRenamedToolIsPairedByItsSchemaAndItsCallsAreTheSameAction() {
        ToolSpec renamed = SEARCH.withName("find_venues");
        Trajectory fixed = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{\"query\":\"x\"}"),
                Message.tool("c", "search_places", "[1]", null), Message.assistant("done"));
        Trajectory shifted = episode(List.of(DETAILS, renamed), "q", call("find_venues", "{ \"query\": \"x\" }"),
                Message.tool("c", "find_venues", "[1]", null), Message.assistant("done"));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertEquals(List.of(RENAMED), d.tools().getFirst().changes());
        assertEquals("find_venues", d.tools().getFirst().shifted().name());
        assertEquals(List.of(SAME), d.tools().get(1).changes());
        assertEquals(-1, d.divergence(), "the same calls under the new name, arguments spaced differently");
        assertEquals(2, d.steps().size());
        assertTrue(d.steps().getFirst().sameAction());
        assertFalse(d.request().differs());
    }

    @Test
    void theFirstStepWithOtherArgumentsIsTheDivergence() {
        Trajectory fixed = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{\"query\":\"x\"}"), Message.tool("c", "search_places", "[1]", null),
                call("get_place_details", "{\"place_id\":\"P1\"}"), Message.tool("c", "get_place_details", "{}", null));
        Trajectory shifted = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{\"query\":\"x\"}"), Message.tool("c", "search_places", "<r>1</r>", null),
                call("get_place_details", "{\"place_id\":\"P2\"}"), Message.tool("c", "get_place_details", "{}", null));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertEquals(1, d.divergence());
        assertTrue(d.steps().getFirst().answersDiffer(), "the first result was rendered differently");
        assertFalse(d.steps().get(1).answersDiffer());
    }

    @Test
    void aStepOnlyOneSideTookIsADivergence() {
        Trajectory fixed = episode(List.of(SEARCH), "q", call("search_places", "{}"), Message.tool("c", "search_places", "[]", null), Message.assistant("done"));
        Trajectory shifted = episode(List.of(SEARCH), "q", call("search_places", "{}"), Message.tool("c", "search_places", "[]", null));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertEquals(1, d.divergence());
        assertNull(d.steps().get(1).shifted());
    }

    @Test
    void aStepTheShiftedSideTookInAdditionDoesNotOffsetTheStepsAfterIt() {
        Trajectory fixed = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{\"query\":\"x\"}"), Message.tool("c", "search_places", "[1]", null),
                call("get_place_details", "{\"place_id\":\"P1\"}"), Message.tool("c", "get_place_details", "{}", null), Message.assistant("done"));
        // the shifted agent retried its search once (an error, then the same call again), then went on as the static one did
        Trajectory shifted = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{\"query\":\"y\"}"),
                Message.tool("c", "search_places", "{}", "INVALID_ARGUMENTS"), call("search_places", "{\"query\":\"x\"}"),
                Message.tool("c", "search_places", "[1]", null), call("get_place_details", "{\"place_id\":\"P1\"}"),
                Message.tool("c", "get_place_details", "{}", null), Message.assistant("done"));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertEquals(4, d.steps().size(), "three pairs and the extra step alone");
        assertNull(d.steps().getFirst().fixed(), "the extra step pairs with nothing");
        assertEquals("{\"query\":\"y\"}", d.steps().getFirst().shifted().action().toolCalls().getFirst().function().arguments());
        assertEquals(0, d.divergence());
        for (int i = 1; i < 4; i++) {
            assertTrue(d.steps().get(i).sameAction(), "step " + i + " pairs with its equal");
            assertFalse(d.steps().get(i).answersDiffer(), "step " + i);
        }
    }

    @Test
    void stepsTakenOnlyAfterTheSameStartDivergeWhereTheyBegin() {
        Trajectory fixed = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{}"), Message.tool("c", "search_places", "[]", null),
                Message.assistant("done"));
        Trajectory shifted = episode(List.of(SEARCH, DETAILS), "q", call("search_places", "{}"), Message.tool("c", "search_places", "[]", null),
                call("get_place_details", "{}"), Message.tool("c", "get_place_details", "{}", null), Message.assistant("done"));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertEquals(3, d.steps().size());
        assertEquals(1, d.divergence());
        assertNull(d.steps().get(1).fixed());
        assertTrue(d.steps().get(2).sameAction(), "both answered 'done' at the end");
    }

    @Test
    void schemaDescriptionAndOneSidedToolsAreNamed() {
        ToolSpec reshaped = SEARCH.withParameters(schema("q"));
        ToolSpec reworded = DETAILS.withDescription("Everything about a place.");
        ToolSpec extra = new ToolSpec("get_weather", "Weather.", schema("city"));
        ToolSpec gone = new ToolSpec("list_districts", "Districts.", schema("city", "country"));
        EpisodeDiff d = EpisodeDiff.of(episode(List.of(SEARCH, DETAILS, gone), "q"), episode(List.of(reshaped, reworded, extra), "q"));
        assertEquals(List.of(SCHEMA), d.tools().get(0).changes());
        assertEquals(List.of(DESCRIPTION), d.tools().get(1).changes());
        // left over on both sides: paired in the order shown, renamed and reshaped at once
        assertEquals(List.of(RENAMED, DESCRIPTION, SCHEMA), d.tools().get(2).changes());
        EpisodeDiff fewer = EpisodeDiff.of(episode(List.of(SEARCH, gone), "q"), episode(List.of(SEARCH), "q"));
        assertEquals(List.of(ONLY_STATIC), fewer.tools().get(1).changes());
        EpisodeDiff more = EpisodeDiff.of(episode(List.of(SEARCH), "q"), episode(List.of(SEARCH, extra), "q"));
        assertEquals(List.of(ONLY_SHIFTED), more.tools().get(1).changes());
    }

    @Test
    void aRewrittenRequestAndUserTurnsAreCompared() {
        Trajectory fixed = episode(List.of(SEARCH), "Book at Blue Fig.", call("ask_user", "{\"question\":\"when?\"}"), Message.user("at 7"));
        Trajectory shifted = episode(List.of(SEARCH), "Book a table.", call("ask_user", "{\"question\":\"when?\"}"), Message.user("at 8"));
        EpisodeDiff d = EpisodeDiff.of(fixed, shifted);
        assertTrue(d.request().differs());
        assertTrue(d.steps().getFirst().answersDiffer(), "the user's reply is what came back");
        assertEquals(-1, d.divergence());
    }

    @Test
    void malformedArgumentsCompareAsText() {
        Trajectory fixed = episode(List.of(SEARCH), "q", call("search_places", "{oops"));
        Trajectory shifted = episode(List.of(SEARCH), "q", call("search_places", "{oops "));
        assertEquals(0, EpisodeDiff.of(fixed, shifted).divergence());
        assertEquals(-1, EpisodeDiff.of(fixed, fixed).divergence());
    }
}
