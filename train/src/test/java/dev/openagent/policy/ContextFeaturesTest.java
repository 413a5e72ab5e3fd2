package dev.openagent.policy;

import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The features the policy compares values with ("which distance is shorter") and matches the request
 * against the tools and what is in view with.
 */
class ContextFeaturesTest {
    private static View.Turn call(String id, String tool, String args, String result) {
        return new View.Turn(Action.CallTools.of(id, tool, args), List.of(Observation.tool(id, tool, result, null)));
    }

    /**
     * poi's closer_booking, turn 6: three searches, then the distance to each candidate. The policy reads
     * all five turns (older ones while they fit in max_history_tokens), but compares numbers only within
     * the three most recent, so "this observation holds the smallest value of a key" marks the closer
     * candidate's distance and not an older search result that happens to hold the lowest rating.
     */
    @Test
    void olderTurnsAreReadButNotComparedInFunctionCallEnvironments() {
        View v = closerBooking();
        Context x = Context.encode(v, PolicyConfig.defaults(), Vocabulary.open());
        assertEquals(5, Context.turnsRead(v, PolicyConfig.defaults()), "every turn is read");
        List<String> holdingSmallest = new ArrayList<>();
        for (int i = 1; i < x.n; i++) {
            if (x.lower[i].startsWith("p") && Context.isObservationSegment(x.seg[i]) && x.feat[i][10] == 1) holdingSmallest.add(x.lower[i]);
        }
        assertTrue(holdingSmallest.contains("p8427"), "the closer candidate's distance is the smallest");
        assertTrue(!holdingSmallest.contains("p8422"), "the farther one's is not: " + holdingSmallest);
        int older = -1;
        for (int i = 1; i < x.n; i++) if (x.lower[i].equals("3.3")) older = i;
        assertTrue(older > 0, "the oldest search is in the context");
        assertEquals(0f, x.feat[older][2], "an older turn's value is not compared");
        assertEquals(0f, x.feat[older][10], "nor does its observation hold an extreme");
    }

    /**
     * The trained policy pointed check_availability's place_id at a search result (its key is the
     * parameter's own name), where nothing says which candidate is closer: with word_extremes each
     * occurrence of the closer candidate's id is marked by the distance get_distance reported beside it,
     * the search results included, older turns too.
     */
    @Test
    void anIdIsMarkedWhereverItOccursByTheExtremeReportedBesideIt() {
        Context x = Context.encode(closerBooking(), PolicyConfig.defaults(), Vocabulary.open());
        int closer = 0;
        int farther = 0;
        for (int i = 1; i < x.n; i++) {
            if (!Context.isObservationSegment(x.seg[i]) || x.source[i] != x.source[i - 1]) continue;
            boolean searchResult = x.lower[i - 1].equals("place_id");
            if (searchResult && x.lower[i].equals("p8427")) {
                closer++;
                assertEquals(1f, x.feat[i][12], "the closer candidate's search result is marked smallest");
                assertEquals(0f, x.feat[i][13]);
            }
            if (searchResult && x.lower[i].equals("p8422")) {
                farther++;
                assertEquals(0f, x.feat[i][12]);
                assertEquals(1f, x.feat[i][13], "the farther one's, largest (an older turn's too)");
            }
        }
        assertEquals(1, closer);
        assertEquals(1, farther);
        Context old = Context.encode(closerBooking(), PolicyConfig.defaults().withWordExtremes(false).withPhraseMatches(false), Vocabulary.open());
        assertEquals(12, old.feat[1].length, "checkpoints written before word_extremes read twelve features");
    }

    /**
     * household's transform_and_place: "Heat the blue pot ..., and put it on the desk ...". Without
     * tool_request_words the quick-budget policy never sent a heat, cool or clean command (0 of 38
     * oracle steps on 120 test tasks): nothing tied the request's verb to the command form that does it.
     */
    @Test
    void theCommandFormTheRequestNamesIsMarked() {
        Demonstrations.Demo transform = householdStep("transform_and_place", "heat", "cool", "clean");
        Context x = Context.encode(transform.view(), PolicyConfig.defaults(), Vocabulary.open());
        String verb = Commands.normalize(((Action.Command) transform.action()).text()).split(" ")[0];
        for (int i = 0; i < x.tools.size(); i++) {
            String form = x.tools.get(i).name();
            boolean named = form.startsWith(verb + " ") || form.startsWith("put ");
            assertEquals(named ? 1f : 0f, x.toolFeat[i][4], form + " in \"" + transform.view().request() + "\"");
        }
        Context old = Context.encode(transform.view(), PolicyConfig.defaults().withToolRequestWords(false), Vocabulary.open());
        assertEquals(4, old.toolFeat[0].length, "checkpoints written before tool_request_words read four tool features");
    }

    /**
     * household's container_place: the thing the request names is shut in a closed container. Before the
     * container is opened, the request's "yellow ladle" is not in the latest observation (another ladle
     * or yellow thing may be); once opened, it is, and where the container lists it, it is marked as named
     * by the request.
     */
    @Test
    void whatTheRequestNamesIsMarkedWhereItIsInView() {
        Demonstrations.Demo open = householdStep("container_place", "open");
        Demonstrations.Demo take = householdStep("container_place", "take");
        PolicyConfig c = PolicyConfig.defaults();
        int f = c.phraseFeature();
        String thing = Commands.normalize(((Action.Command) take.action()).text()).replaceFirst("^take (.*) from (.*)$", "$1");
        assertTrue(thing.contains(" "), "a coloured thing: " + thing);
        Context before = Context.encode(open.view(), c, Vocabulary.open());
        Context after = Context.encode(take.view(), c, Vocabulary.open());
        assertEquals(0f, requestMark(before, thing, f + 1), thing + " is not in view before its container is opened");
        assertEquals(1f, requestMark(after, thing, f + 1), thing + " is in view once it is");
        int seen = 0;
        for (int[] o : after.occurrences(thing)) {
            if (after.seg[o[0]] != 4) continue;
            seen++;
            for (int i = o[0]; i <= o[1]; i++) assertEquals(1f, after.feat[i][f], "the opened container's " + thing + " is the one the request names");
        }
        assertTrue(seen > 0, thing + " is listed in the opened container");
        Context old = Context.encode(take.view(), c.withPhraseMatches(false), Vocabulary.open());
        assertEquals(c.features() - 2, old.feat[1].length, "checkpoints written before phrase_matches read two features fewer");
    }

    /** The largest mark of the request's occurrence of {@code phrase} at feature {@code f}. */
    private static float requestMark(Context x, String phrase, int f) {
        float mark = -1;
        for (int[] o : x.occurrences(phrase)) {
            if (x.seg[o[0]] != Context.SEG_REQUEST) continue;
            for (int i = o[0]; i <= o[1]; i++) mark = Math.max(mark, x.feat[i][f]);
        }
        return mark;
    }

    /**
     * The view of the first oracle step of a household training task of this kind whose command starts
     * with one of the verbs (the first such step of the first such task, in task order).
     */
    private static Demonstrations.Demo householdStep(String kind, String... verbs) {
        for (int i = 0; i < 400; i++) {
            Demonstrations.Episode e = Demonstrations.record(Environments.get("household").create(),
                    new TaskRequest(Split.TRAIN, Seeds.mix(7, i), 0), ShiftStack.NONE);
            if (e.steps().isEmpty() || !e.steps().getFirst().task().kind().equals(kind)) continue;
            for (Demonstrations.Demo d : e.steps()) {
                if (!(d.action() instanceof Action.Command cmd)) continue;
                String verb = Commands.normalize(cmd.text()).split(" ")[0];
                if (List.of(verbs).contains(verb)) return d;
            }
        }
        throw new AssertionError("no " + kind + " task with " + List.of(verbs) + " among 400 training tasks");
    }

    private static View closerBooking() {
        List<View.Turn> turns = new ArrayList<>(List.of(
                call("c0", "search_places", "{\"name\":\"Green Thistle Museum\"}",
                        "{\"count\":1,\"results\":[{\"place_id\":\"P6693\",\"name\":\"Green Thistle Museum\",\"rating\":3.3,\"price_level\":2}]}"),
                call("c1", "search_places", "{\"name\":\"Jade Pearl Coffee House\"}",
                        "{\"count\":1,\"results\":[{\"place_id\":\"P8422\",\"name\":\"Jade Pearl Coffee House\",\"rating\":4.0,\"price_level\":3}]}"),
                call("c2", "search_places", "{\"name\":\"Little Saffron Tavern\"}",
                        "{\"count\":1,\"results\":[{\"place_id\":\"P8427\",\"name\":\"Little Saffron Tavern\",\"rating\":3.5,\"price_level\":2}]}"),
                call("c3", "get_distance", "{\"from_place_id\":\"P6693\",\"to_place_id\":\"P8422\"}",
                        "{\"from_place_id\":\"P6693\",\"to_place_id\":\"P8422\",\"distance_km\":2.7,\"minutes\":32}"),
                call("c4", "get_distance", "{\"from_place_id\":\"P6693\",\"to_place_id\":\"P8427\"}",
                        "{\"from_place_id\":\"P6693\",\"to_place_id\":\"P8427\",\"distance_km\":0.4,\"minutes\":5}")));
        return new View("Book at whichever is closer to Green Thistle Museum: Jade Pearl Coffee House or Little Saffron Tavern.",
                "", List.of(new ToolSpec("get_distance", "Street distance in km between two places.", Json.object())), List.of(), turns);
    }
}
