package dev.openagent.policy;

import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The numeric features the policy compares values with ("which distance is shorter"). */
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
        Context old = Context.encode(closerBooking(), PolicyConfig.defaults().withWordExtremes(false).withRecordMatch(false).withRequestBounds(false), Vocabulary.open());
        assertEquals(12, old.feat[1].length, "checkpoints written before word_extremes read twelve features");
    }

    /**
     * retail's return_item: the request names the item by its words ("the red Ridge Backpack"); the specialist
     * returned the order's first item instead. With record_match the named item's record is marked as the
     * best match of its list, on every token of it (the item id to copy included), and no other record is.
     */
    @Test
    void theRecordTheRequestNamesIsMarkedAmongItsList() {
        String order = "{\"order_id\":\"O-401959\",\"status\":\"delivered\",\"items\":["
                + "{\"item_id\":\"ITM-49667\",\"product_name\":\"Zephyr Throw Blanket\",\"color\":\"grey\",\"variant_id\":\"SKU-29298\"},"
                + "{\"item_id\":\"ITM-75582\",\"product_name\":\"Ridge Backpack\",\"color\":\"red\",\"variant_id\":\"SKU-65453\"},"
                + "{\"item_id\":\"ITM-17792\",\"product_name\":\"Zephyr Headphones\",\"color\":\"teal\",\"variant_id\":\"SKU-31247\"}]}";
        View v = new View("Please return the red Ridge Backpack from order O-401959 and refund it as store credit.", "",
                List.of(new ToolSpec("return_item", "Return an item.", Json.object())), List.of(),
                List.of(call("c0", "get_order", "{\"order_id\":\"O-401959\"}", order)));
        Context x = Context.encode(v, PolicyConfig.defaults(), Vocabulary.open());
        for (int i = 1; i < x.n; i++) {
            if (!Context.isObservationSegment(x.seg[i])) continue;
            switch (x.lower[i]) {
                case "itm-75582", "sku-65453" -> {
                    assertEquals(1f, x.feat[i][15], x.lower[i] + " is in the record the request names");
                    assertEquals(0.75f, x.feat[i][14], "it shares three words: red, ridge, backpack");
                }
                case "itm-49667", "itm-17792", "sku-31247" -> {
                    assertEquals(0f, x.feat[i][15], x.lower[i] + " is not");
                    assertEquals(0f, x.feat[i][14]);
                }
                case "o-401959" -> assertEquals(0f, x.feat[i][15], "the order itself is no record of a list");
                default -> { }
            }
        }
        assertEquals(19, x.feat[1].length);
        Context old = Context.encode(v, PolicyConfig.defaults().withRecordMatch(false).withRequestBounds(false), Vocabulary.open());
        assertEquals(14, old.feat[1].length, "checkpoints written before record_match read fourteen features");
    }

    /**
     * travel's budget_hotel: "the most stars whose total for the stay is at most $190". The specialist booked the
     * cheapest hotel. With request_bounds the ids whose rates total at most 190 are marked wherever they occur,
     * and among the search result's records holding them the one with the most stars is marked.
     */
    @Test
    void theRecordWithinTheRequestsBoundWithTheMostStarsIsMarked() {
        String search = "{\"hotels\":[{\"hotel_id\":\"H-439\",\"name\":\"Harbor Hotel\",\"stars\":3,\"nightly_from\":182},"
                + "{\"hotel_id\":\"H-136\",\"name\":\"Harbor Lodge\",\"stars\":4,\"nightly_from\":206},"
                + "{\"hotel_id\":\"H-107\",\"name\":\"Park Lodge\",\"stars\":2,\"nightly_from\":174}],\"count\":3}";
        List<View.Turn> turns = new ArrayList<>();
        turns.add(call("c0", "search_hotels", "{\"city\":\"Oakmere\"}", search));
        int k = 1;
        for (String[] h : new String[][]{{"H-439", "182"}, {"H-136", "206"}, {"H-107", "174"}}) {
            turns.add(call("c" + k++, "get_hotel_rates", "{\"hotel_id\":\"" + h[0] + "\"}",
                    "{\"hotel_id\":\"" + h[0] + "\",\"available\":true,\"total_price\":" + h[1] + "}"));
        }
        View v = new View("Book a room in Oakmere from 2027-05-03 to 2027-05-04 for Walter Lachance at the hotel with the most "
                + "stars whose total for the stay is at most $190.", "",
                List.of(new ToolSpec("book_hotel", "Book a hotel.", Json.object())), List.of(), turns);
        PolicyConfig c = PolicyConfig.defaults();
        Context x = Context.encode(v, c, Vocabulary.open());
        int at = c.requestBoundsAt();
        int searched = 0;
        for (int i = 1; i < x.n; i++) {
            if (!Context.isObservationSegment(x.seg[i])) continue;
            switch (x.lower[i]) {
                case "h-439" -> assertEquals(1f, x.feat[i][at], "182 is within 190");
                case "h-107" -> assertEquals(1f, x.feat[i][at], "174 is within 190");
                case "h-136" -> assertEquals(0f, x.feat[i][at], "206 is not");
                case "hotel_id" -> assertEquals(0f, x.feat[i][at], "a key every text holds is on both sides");
                default -> { }
            }
            if (x.source[i] == x.source[i - 1] && x.lower[i - 1].equals("hotel_id") && x.lower[i].startsWith("h-") && x.feat[i][at + 1] + x.feat[i][at + 2] > 0) {
                searched++;
                assertEquals(x.lower[i].equals("h-439") ? 1f : 0f, x.feat[i][at + 1], x.lower[i] + ": the most stars within the budget");
                assertEquals(x.lower[i].equals("h-107") ? 1f : 0f, x.feat[i][at + 2], x.lower[i] + ": the fewest");
            }
        }
        assertEquals(2, searched, "only the search result's two records within the budget are compared");
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
