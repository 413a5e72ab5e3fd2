package dev.openagent.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.Test;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.EncodingType;
import dev.openagent.episode.Message;
import dev.openagent.episode.Stats;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.ToolSpec;
import java.util.Map;

import java.util.ArrayList;
import java.util.List;

import static dev.openagent.fake.Results.answered;
import static dev.openagent.fake.Results.episode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScorecardTest {
    @Test
    void deltaPairsShiftedEpisodesWithTheStaticOnesOfTheSameTasks() {
        List<EpisodeResult> rs = new ArrayList<>();
        // 10 tasks. Static: tasks 0-7 succeed. Shifted: tasks 0-2 and 9 succeed.
        for (int i = 0; i < 10; i++) {
            rs.add(answered("a", "none", "static", i, i < 8));
            rs.add(answered("a", "tool.semantic-rename", "perception", i, i < 3 || i == 9));
        }
        Scorecard card = new Scorecard(rs);
        GroupMetrics shifted = card.byShift().get("tool.semantic-rename");
        GroupMetrics.Delta d = shifted.delta();
        assertEquals(10, d.pairs());
        assertEquals(0.8, d.staticRate());
        assertEquals(0.4, d.shiftedRate());
        assertEquals(-0.4, d.absolute(), 1e-9);
        assertEquals(-0.5, d.relative(), 1e-9);
        assertEquals(5, d.staticOnly());   // tasks 3-7
        assertEquals(1, d.shiftedOnly());  // task 9
        assertEquals(0.21875, d.pValue(), 1e-6); // 2 * (1 + 6) / 64
        assertNull(card.byShift().get("none").delta(), "the static condition has no delta");
        assertEquals(0.4, shifted.successRate());
        assertEquals(0.1682, shifted.successCi()[0], 1e-4);
        assertEquals(0.6873, shifted.successCi()[1], 1e-4);
    }

    @Test
    void infrastructureErrorsAreCountedButNeverScored() {
        List<EpisodeResult> rs = List.of(
                answered("a", "none", "static", 1, true),
                answered("a", "none", "static", 2, false),
                episode("a", "none", "static", 3, 0, false, true, Outcome.End.INFRA_ERROR));
        GroupMetrics m = new Scorecard(rs).overall();
        assertEquals(3, m.episodes());
        assertEquals(1, m.errors());
        assertEquals(2, m.scored());
        assertEquals(0.5, m.successRate());
        assertEquals(1, m.failures().get("infra_error"));
        GroupMetrics none = new Scorecard(List.of(rs.get(2))).overall();
        assertNull(none.successRate(), "nothing scored is no rate, not zero");
        assertNull(none.successCi());
        assertNull(none.toolErrorRate());
    }

    @Test
    void refusalRatesSeparateUnsolvableFromSolvableTasks() {
        List<EpisodeResult> rs = List.of(
                episode("a", "task.unsolvable", "internalization", 1, 0, true, false, Outcome.End.REFUSED),
                episode("a", "task.unsolvable", "internalization", 2, 0, false, false, Outcome.End.ANSWERED),
                episode("a", "task.unsolvable", "internalization", 3, 0, false, false, Outcome.End.ANSWERED),
                episode("a", "task.unsolvable", "internalization", 4, 0, false, false, Outcome.End.ANSWERED),
                episode("a", "none", "static", 1, 0, false, true, Outcome.End.REFUSED),
                answered("a", "none", "static", 2, true));
        GroupMetrics m = new Scorecard(rs).overall();
        assertEquals(0.25, m.refusalRate());
        assertEquals(0.5, m.falseRefusalRate());
        assertEquals(3, m.failures().get("forced_completion"));
        assertEquals(1, m.failures().get("false_refusal"));
    }

    @Test
    void passKComesFromTrialsOfEachTask() {
        List<EpisodeResult> rs = new ArrayList<>();
        boolean[][] outcomes = {{true, true, false, false}, {true, true, true, true}};
        for (int task = 0; task < 2; task++) {
            for (int trial = 0; trial < 4; trial++) {
                rs.add(episode("a", "none", "static", task, trial, outcomes[task][trial], true, Outcome.End.ANSWERED));
            }
        }
        GroupMetrics m = new Scorecard(rs).overall();
        assertEquals(0.75, m.passK().get("1"));
        assertEquals(0.5833, m.passK().get("2"));
        assertEquals(0.5, m.passK().get("4"));
    }

    @Test
    void jsonSummaryHasTheDocumentedShape() {
        List<EpisodeResult> rs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            rs.add(answered("a", "none", "static", i, true));
            rs.add(answered("a", "obs.format", "interaction", i, i % 2 == 0));
            rs.add(answered("b", "none", "static", i, i > 0));
        }
        ObjectNode json = new Scorecard(rs).toJson();
        for (String k : List.of("episodes", "errors", "success_rate", "success_ci", "tool_error_rate", "avg_turns", "avg_tokens", "tool_list_tokens",
                "tool_list_tokens_per_episode", "pass_k",
                "failures", "by_shift", "by_tier", "by_agent", "by_env")) {
            assertTrue(json.has(k), "summary has " + k + ": " + json);
        }
        JsonNode shift = json.path("by_shift").path("obs.format");
        assertEquals("interaction", shift.path("tier").asText());
        for (String k : List.of("episodes", "success_rate", "refusal_rate", "delta", "success_ci")) {
            assertTrue(shift.has(k), k + " in " + shift);
        }
        assertEquals(4, shift.path("episodes").asInt());
        assertEquals(0.5, shift.path("success_rate").asDouble(), 1e-9);
        assertEquals(0.0, shift.path("refusal_rate").asDouble(), 1e-9, "every episode answered");
        assertEquals(-0.5, shift.path("delta").path("absolute").asDouble(), 1e-9);
        assertEquals(List.of("none", "obs.format"), iterator(json.path("by_shift")));
        assertEquals(List.of("static", "interaction"), iterator(json.path("by_tier")));
        assertEquals(0.75, json.path("by_agent").path("b").path("success_rate").asDouble());
        assertFalse(json.path("by_agent").path("b").path("by_shift").has("obs.format"));
    }

    private static List<String> iterator(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /**
     * What the tool list costs: each tool as a chat request's tools field sends it, written out here and counted in
     * o200k_base, summed over the list; an episode pays it once a turn. (Mutation tried: the per-episode figure not
     * multiplied by the turns, 1 failure.)
     */
    @Test
    void theToolListCostsItsTokensEveryTurn() {
        ToolSpec tool = new ToolSpec("get_place", "Looks up a place by id.", Json.object().put("type", "object"));
        ToolSpec other = new ToolSpec("get_hours", "Opening hours of a place.", Json.object().put("type", "object"));
        var o200k = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);
        int one = o200k.countTokensOrdinary("{\"type\":\"function\",\"function\":{\"name\":\"get_place\","
                + "\"description\":\"Looks up a place by id.\",\"parameters\":{\"type\":\"object\"}}}");
        int two = o200k.countTokensOrdinary("{\"type\":\"function\",\"function\":{\"name\":\"get_hours\","
                + "\"description\":\"Opening hours of a place.\",\"parameters\":{\"type\":\"object\"}}}");
        Outcome ok = new Outcome(true, Outcome.End.ANSWERED, "correct");
        Trajectory t = new Trajectory("poi", "poi/test/1/1", "test", 1, 1, "rating_lookup", true, List.of(), "a",
                List.of(tool, other), List.of(Message.user("?"), Message.assistant("done")), ok, new Stats(3, 0, 0, Map.of(), 0, 0));
        EpisodeResult r = new EpisodeResult(new EpisodeKey("cfg", "a", "poi", "none", 1, 0), "static", 0, ok, t, new GoldFacts(0, List.of()), 5);
        GroupMetrics m = new Scorecard(List.of(r, answered("a", "none", "static", 2, true))).overall();
        assertEquals((one + two) / 2.0, m.toolListTokens(), "a mean over episodes; the second has no tools");
        assertEquals(3 * (one + two) / 2.0, m.toolListTokensPerEpisode(), "three turns, the list sent each");
    }
}
