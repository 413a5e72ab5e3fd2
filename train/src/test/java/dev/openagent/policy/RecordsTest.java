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
        assertEquals(List.of(new Records.Extreme("departs", true), new Records.Extreme("fare", false)), first.extremes());
        assertEquals(List.of(new Records.Extreme("departs", false), new Records.Extreme("fare", true)), second.extremes());
        assertEquals(FLIGHTS.substring(first.start(), first.end()), FLIGHTS.substring(FLIGHTS.indexOf("{\"flight_number\":\"SK"), FLIGHTS.indexOf(",{\"flight_number\":\"FW")));
        assertEquals(null, Records.at(spans, FLIGHTS.indexOf("count")), "outside every record");
    }

    @Test
    void proseAndSingleRecordsHaveNone() {
        assertTrue(Records.of("You are in the kitchen. {not json").isEmpty());
        assertTrue(Records.of("{\"flights\":[{\"fare\":3}]}").isEmpty());
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
        assertEquals(List.of(new Records.Extreme("departs", false), new Records.Extreme("fare", true)), List.of(x.extremes[fw]));
    }
}
