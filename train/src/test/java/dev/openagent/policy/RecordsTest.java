package dev.openagent.policy;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordsTest {
    static final String FLIGHTS = "{\"flights\":[{\"flight_number\":\"SK 620\",\"departs\":\"06:20\",\"fare\":303,\"date\":\"2027-05-04\"},"
            + "{\"flight_number\":\"FW 849\",\"departs\":\"08:35\",\"fare\":244,\"date\":\"2027-05-04\"}],\"count\":2}";

    /** The cheapest flight's record says so, and the earliest one's says that: each field by name, times compared as times. */
    @Test
    void eachRecordOfAListKnowsWhichFieldsItHoldsTheExtremesOf() {
        List<Records.Span> spans = Records.of(FLIGHTS);
        assertEquals(2, spans.size());
        Records.Span first = Records.at(spans, FLIGHTS.indexOf("SK 620"));
        Records.Span second = Records.at(spans, FLIGHTS.indexOf("FW 849"));
        assertEquals(List.of(new Records.Extreme("departs", true, false), new Records.Extreme("fare", false, false)), first.extremes());
        assertEquals(List.of(new Records.Extreme("departs", false, false), new Records.Extreme("fare", true, false)), second.extremes());
        assertEquals(FLIGHTS.substring(first.start(), first.end()), FLIGHTS.substring(FLIGHTS.indexOf("{\"flight_number\":\"SK"), FLIGHTS.indexOf(",{\"flight_number\":\"FW")));
        assertEquals(null, Records.at(spans, FLIGHTS.indexOf("count")), "outside every record");
    }

    @Test
    void proseAndSingleRecordsHaveNone() {
        assertTrue(Records.of("You are in the kitchen. {not json").isEmpty());
        assertTrue(Records.of("{\"flights\":[{\"fare\":3}]}").isEmpty());
        assertEquals(1, Records.all("{\"flights\":[{\"fare\":3}]}").size(), "kept for comparing across lists");
        assertTrue(Records.all("{\"flights\":[{\"fare\":3}]}").getFirst().extremes().isEmpty());
        assertTrue(Records.of("<flights><fare>3</fare></flights>").isEmpty());
    }

    /** The context carries them to the tokens of each record, for the network to read. */
    @Test
    void theContextMarksEveryTokenOfTheRecord() {
        View v = new View("cheapest?", "", List.of(), List.of(), List.of(new View.Turn(
                dev.openagent.sandbox.Action.CallTools.of("c1", "search_flights", "{}"),
                List.of(dev.openagent.sandbox.Observation.tool("c1", "search_flights", FLIGHTS, null)))));
        Context x = Context.encode(v, PolicyConfig.defaults(), Vocabulary.open());
        int fw = -1;
        for (int i = 0; i < x.n; i++) if (x.lower[i].equals("fw")) fw = i;
        assertTrue(fw > 0);
        assertEquals(List.of(new Records.Extreme("departs", false, false), new Records.Extreme("fare", true, false)), List.of(x.extremes[fw]));
    }

    static final String NONSTOPS = "{\"flights\":[{\"flight_id\":\"MA160-0507\",\"departs\":\"09:10\",\"arrives\":\"12:35\",\"fare\":227}],\"count\":1}";
    static final String CONNECTIONS = "{\"itineraries\":[{\"first_flight_id\":\"PC681-0507\",\"second_flight_id\":\"MA644-0507\","
            + "\"departs\":\"06:05\",\"arrives\":\"12:20\",\"total_fare\":301}],\"count\":1}";

    /**
     * "Whichever arrives first, a nonstop or a one-stop connection": two searches of one record each. With
     * across_lists the connection's record holds the earliest arrival (and departure) of both lists, the nonstop's the
     * latest; fields of one list only (fare, total_fare) and lists of one record among themselves mark nothing.
     */
    @Test
    void acrossListsTheRecordHoldingTheEarliestArrivalOfBothSearchesIsMarked() {
        View v = new View("arriving as early as possible", "", List.of(), List.of(), List.of(
                new View.Turn(dev.openagent.sandbox.Action.CallTools.of("c1", "search_flights", "{}"),
                        List.of(dev.openagent.sandbox.Observation.tool("c1", "search_flights", NONSTOPS, null))),
                new View.Turn(dev.openagent.sandbox.Action.CallTools.of("c2", "search_connections", "{}"),
                        List.of(dev.openagent.sandbox.Observation.tool("c2", "search_connections", CONNECTIONS, null)))));
        Context x = Context.encode(v, PolicyConfig.defaults(), Vocabulary.open());
        assertEquals(List.of(new Records.Extreme("arrives", true, true), new Records.Extreme("departs", true, true)),
                List.of(x.extremes[tokenOf(x, "pc681-0507")]));
        assertEquals(List.of(new Records.Extreme("arrives", false, true), new Records.Extreme("departs", false, true)),
                List.of(x.extremes[tokenOf(x, "ma160-0507")]));
        Context before = Context.encode(v, PolicyConfig.defaults().withAcrossLists(false), Vocabulary.open());
        assertEquals(0, before.extremes[tokenOf(before, "pc681-0507")].length, "a checkpoint without across_lists reads none");
    }

    private static int tokenOf(Context x, String lower) {
        for (int i = 0; i < x.n; i++) if (x.lower[i].equals(lower)) return i;
        throw new AssertionError(lower + " not in the context");
    }
}
