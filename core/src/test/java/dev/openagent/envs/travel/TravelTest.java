package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Connection;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.Layout;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.RecordLookup;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.Tool;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.openagent.envs.EnvTesting.answerWith;
import static dev.openagent.envs.EnvTesting.assertAnswerFails;
import static dev.openagent.envs.EnvTesting.assertRewrittenAnswerFails;
import static dev.openagent.envs.EnvTesting.hasRepeats;
import static dev.openagent.envs.EnvTesting.assertEveryLayoutPosesEveryDifficulty;
import static dev.openagent.envs.EnvTesting.started;
import static dev.openagent.envs.EnvTesting.assertSameTwice;
import static dev.openagent.envs.EnvTesting.assertSplitsShareNoNames;
import static dev.openagent.envs.EnvTesting.call;
import static dev.openagent.envs.EnvTesting.json;
import static dev.openagent.envs.EnvTesting.ok;
import static dev.openagent.envs.EnvTesting.requestFor;
import static dev.openagent.envs.EnvTesting.runTampered;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TravelTest {
    /** A started episode, made afresh for each test (JUnit makes a new instance per test). */
    private final DomainEnv<TravelWorld> env = started(TravelDomain.DOMAIN);

    private TravelWorld w() { return env.world(); }

    // ---------------------------------------------------------------- generator

    @Test
    void layoutsAreDeterministicAndSplitsShareNoNames() {
        assertSameTwice(() -> TravelWorld.generate(Split.TRAIN, 8), Layout::airports, Layout::flights, Layout::hotels);
        assertSplitsShareNoNames(TravelWorld.LAYOUTS, 40, (l, names) -> {
            names.addAll(l.cities());
            l.flights().forEach(f -> names.add(f.airline()));
            l.hotels().forEach(h -> names.add(h.name()));
        });
    }

    @Test
    void worldsHaveTwoAirportCitiesChainHotelsAndConnections() {
        Layout l = w().layout();
        assertTrue(l.airports().size() > l.cities().size(), "some cities have two airports");
        assertTrue(hasRepeats(l.hotels(), Hotel::name), "a hotel name appears in two cities");
        boolean connection = false;
        for (Airport a : l.airports()) for (Airport b : l.airports()) connection |= !a.city().equals(b.city()) && !w().connections(a.code(), b.code(), 2, 45).isEmpty();
        assertTrue(connection);
    }

    /** Every cached layout of both splits can pose a task at every difficulty (kinds fall back to siblings, never fail). */
    @Test
    void everyLayoutPosesATaskAtEveryDifficulty() {
        assertEveryLayoutPosesEveryDifficulty(TravelWorld.LAYOUTS, (l, i) -> new TravelWorld(l, i * 31L), TravelTasks::generate);
    }

    // ---------------------------------------------------------------- tools

    @Test
    void flightSearchesAndDetails() {
        Flight f = w().layout().flights().get(10);
        JsonNode found = ok(env, "search_flights", json("origin", f.origin().toLowerCase(), "destination", f.destination(), "date", TravelWorld.DATES.get(f.day())));
        assertTrue(found.get("flights").findValuesAsText("flight_id").contains(f.id()));
        JsonNode cheap = ok(env, "search_flights", json("origin", f.origin(), "destination", f.destination(), "date", TravelWorld.DATES.get(f.day()), "max_price", f.price() - 1));
        assertFalse(cheap.get("flights").findValuesAsText("flight_id").contains(f.id()));
        JsonNode details = ok(env, "get_flight", json("flight_id", f.id().toLowerCase()));
        assertEquals(f.minutes(), details.get("duration_minutes").asInt());
        JsonNode rules = ok(env, "get_fare_rules", json("flight_id", f.id()));
        assertEquals(f.refundable(), rules.get("refundable").asBoolean());
        assertEquals(ToolError.Code.DOMAIN, call(env, "search_flights", json("origin", "Portmere", "destination", f.destination(), "date", "2027-05-04")).error().code());
        assertEquals(ToolError.Code.DOMAIN, call(env, "search_flights", json("origin", f.origin(), "destination", f.destination(), "date", "2027-06-01")).error().code());
        JsonNode airports = ok(env, "list_airports", json("city", w().layout().cities().getFirst()));
        assertTrue(airports.get("airports").size() >= 1);
    }

    @Test
    void connectionsRespectTheLayoverMinimum() {
        for (Airport a : w().layout().airports()) {
            for (Airport b : w().layout().airports()) {
                if (a.city().equals(b.city())) continue;
                JsonNode list = ok(env, "search_connections", json("origin", a.code(), "destination", b.code(), "date", "2027-05-05", "min_layover_minutes", 90));
                for (JsonNode it : list.get("itineraries")) assertTrue(it.get("layover_minutes").asInt() >= 90);
                if (list.get("count").asInt() > 0) return;
            }
        }
        throw new AssertionError("no connection anywhere on 2027-05-05");
    }

    @Test
    void bookingAConnectionChecksTheLegs() {
        Connection c = null;
        for (Airport a : w().layout().airports()) {
            for (Airport b : w().layout().airports()) {
                if (c != null || a.city().equals(b.city())) continue;
                for (Connection x : w().connections(a.code(), b.code(), 3, 45)) {
                    if (c == null && w().seatsLeft(x.first()) > 0 && w().seatsLeft(x.second()) > 0) c = x;
                }
            }
        }
        assertTrue(call(env, "book_flight", json("flight_id", c.second().id(), "passenger_name", "Ann Lee", "connecting_flight_id", c.first().id())).isError(),
                "legs in the wrong order");
        JsonNode booked = ok(env, "book_flight", json("flight_id", c.first().id(), "passenger_name", "Ann Lee", "connecting_flight_id", c.second().id()));
        assertEquals(c.price(), booked.get("total_fare").asInt());
        assertEquals(TravelWorld.CLOCK[c.second().arr()], booked.get("arrives").asText(), "the arrival at the destination, after both legs");
        String locator = booked.get("record_locator").asText();
        JsonNode mine = ok(env, "list_bookings", json("passenger_name", "ann lee"));
        assertEquals(locator, mine.at("/bookings/0/reference").asText());
        assertTrue(call(env, "cancel_booking", json("reference", locator, "last_name", "Smith")).isError());
        assertTrue(ok(env, "cancel_booking", json("reference", locator, "last_name", "Lee")).get("cancellation_code").asText().startsWith("CXL-"));
        assertTrue(call(env, "cancel_booking", json("reference", locator, "last_name", "Lee")).isError(), "cancelled already");
    }

    @Test
    void soldOutFlightsCannotBeBooked() {
        Flight full = w().layout().flights().stream().filter(f -> f.seats() == 0).findFirst().orElseThrow();
        assertTrue(call(env, "book_flight", json("flight_id", full.id(), "passenger_name", "Ann Lee")).text().contains("sold out"));
    }

    @Test
    void hotelSearchRatesAndBooking() {
        TwoNights stay = twoNights();
        Hotel h = stay.hotel();
        String checkIn = stay.checkIn(), checkOut = stay.checkOut();
        JsonNode found = ok(env, "search_hotels", json("city", h.city(), "check_in", checkIn, "check_out", checkOut));
        assertTrue(found.get("hotels").findValuesAsText("hotel_id").contains(h.id()));
        JsonNode rates = ok(env, "get_hotel_rates", json("hotel_id", h.id(), "check_in", checkIn, "check_out", checkOut));
        assertEquals(w().stayPrice(h, stay.in(), stay.in() + 2), rates.get("total_price").asInt());
        assertEquals(rates.at("/nights/0/price").asInt() + rates.at("/nights/1/price").asInt(), rates.get("total_price").asInt());
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_hotel_rates", json("hotel_id", h.id(), "check_in", checkOut, "check_out", checkIn)).error().code());
        assertEquals(ToolError.Code.DOMAIN, call(env, "search_hotels", json("city", h.city(), "check_in", checkIn)).error().code());
        JsonNode booked = ok(env, "book_hotel", json("hotel_id", h.id(), "check_in", checkIn, "check_out", checkOut, "guest_name", "Ann Lee"));
        assertEquals(rates.get("total_price").asInt(), booked.get("total_price").asInt());
        assertTrue(ok(env, "get_hotel", json("hotel_id", h.id())).get("amenities").isArray());
    }

    // ---------------------------------------------------------------- declared facts

    /** A hotel with a room two nights running, and the first of those nights. */
    private record TwoNights(Hotel hotel, int in) {
        String checkIn() { return TravelWorld.DATES.get(in); }

        String checkOut() { return TravelWorld.DATES.get(in + 2); }
    }

    private TwoNights twoNights() {
        for (Hotel x : w().layout().hotels()) {
            for (int d = 0; d < 6; d++) if (w().available(x, d, d + 2)) return new TwoNights(x, d);
        }
        throw new AssertionError("no hotel has a room two nights running");
    }

    /** "N nights from that day" needs no date arithmetic: every stay tool takes nights instead of a check-out date. */
    @Test
    void staysCanBeGivenAsNightsAndTheToolComputesTheCheckOut() {
        TwoNights stay = twoNights();
        Hotel h = stay.hotel();
        String checkIn = stay.checkIn(), checkOut = stay.checkOut();
        assertEquals(ok(env, "search_hotels", json("city", h.city(), "check_in", checkIn, "check_out", checkOut)),
                ok(env, "search_hotels", json("city", h.city(), "check_in", checkIn, "nights", 2)));
        assertEquals(ok(env, "get_hotel_rates", json("hotel_id", h.id(), "check_in", checkIn, "check_out", checkOut)),
                ok(env, "get_hotel_rates", json("hotel_id", h.id(), "check_in", checkIn, "nights", 2)));
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_hotel_rates", json("hotel_id", h.id(), "check_in", checkIn)).error().code());
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_hotel_rates",
                json("hotel_id", h.id(), "check_in", checkIn, "check_out", checkOut, "nights", 2)).error().code());
        assertEquals(ToolError.Code.DOMAIN, call(env, "get_hotel_rates",
                json("hotel_id", h.id(), "check_in", TravelWorld.DATES.get(TravelWorld.FLIGHT_DAYS - 1), "nights", 2)).error().code());
        JsonNode booked = ok(env, "book_hotel", json("hotel_id", h.id(), "check_in", checkIn, "nights", 2, "guest_name", "Ann Lee"));
        assertEquals(checkOut, booked.get("check_out").asText());
        assertEquals(w().stayPrice(h, stay.in(), stay.in() + 2), booked.get("total_price").asInt());
    }

    @Test
    void toolsDeclareTheirRecordsOrderAndPersonNames() {
        EnvFacts facts = env.facts();
        assertEquals(Optional.of(new RecordLookup("get_flight", "first_flight_id", "flight_id", Set.of("departs"))), facts.lookup("first_flight_id"));
        assertEquals("get_hotel", facts.lookup("hotel_id").orElseThrow().tool());
        assertTrue(facts.lookup("second_flight_id").isEmpty(), "no tool gives a connection's second leg by that name");
        assertEquals(List.of(new EnvFacts.Prerequisite("get_hotel_rates", "book_hotel")), facts.prerequisites());
        assertTrue(facts.personName("book_flight", "passenger_name") && facts.personName("book_hotel", "guest_name")
                && facts.personName("list_bookings", "passenger_name"));
        assertFalse(facts.personName("cancel_booking", "last_name"), "a last name alone is not a full name");
        assertTrue(facts.alternatives().isEmpty(), "rates, fares and schedules each have one source");
        assertEquals(Set.of("book_flight", "book_hotel", "cancel_booking"), new HashSet<>(TravelTools.ALL.stream().map(Tool::name)
                .filter(n -> !facts.readOnlyTools().contains(n)).toList()));
    }

    /** On the oracle's plans, a tool declared read-only never changes the world and every other tool does. */
    @Test
    void readOnlyToolsChangeNothingAndTheOthersDo() {
        Set<String> readOnly = env.facts().readOnlyTools();
        Set<String> seen = new HashSet<>();
        for (long seed = 0; seed < 40; seed++) {
            env.reset(new TaskRequest(Split.TEST, seed, 0));
            Guide guide = env.guide();
            Step last = null;
            do {
                Action a = guide.next(last);
                List<Object> before = state();
                last = env.step(a);
                if (a instanceof Action.CallTools c && !last.observations().getFirst().isError()) {
                    String tool = c.calls().getFirst().name();
                    seen.add(tool);
                    assertEquals(readOnly.contains(tool), before.equals(state()),
                            tool + (readOnly.contains(tool) ? " is declared read-only but changed the world" : " changed nothing but is not declared read-only"));
                }
            } while (!last.done());
        }
        assertTrue(seen.containsAll(Set.of("book_flight", "book_hotel", "cancel_booking", "get_hotel_rates", "list_airports")), seen.toString());
    }

    private List<Object> state() {
        return List.of(w().flightBookings(), w().hotelBookings(), Map.copyOf(w().cancelled));
    }

    // ---------------------------------------------------------------- checker

    @Test
    void tooShortALayoverOrNoLocatorFails() {
        TaskRequest r = requestFor(env, "connection_booking", 4, Split.TRAIN);
        assertTrue(runTampered(env, r, a -> a).success());
        env.reset(r);
        int minimum = Integer.parseInt(env.task().query().replaceAll(".*at least (\\d+) minutes.*", "$1"));
        String from = env.task().plan().calls().getFirst().args().get("origin").asText();
        String to = env.task().plan().calls().getFirst().args().get("destination").asText();
        int day = TravelWorld.day(env.task().plan().calls().getFirst().args().get("date").asText());
        Connection tight = w().connections(from, to, day, 45).stream().filter(c -> c.layover() < minimum).findFirst().orElse(null);
        if (tight != null && w().seatsLeft(tight.first()) > 0 && w().seatsLeft(tight.second()) > 0) {
            ok(env, "book_flight", json("flight_id", tight.first().id(), "passenger_name", env.task().expect().get("flight_passenger"),
                    "connecting_flight_id", tight.second().id()));
            Step end = env.step(new Action.Answer(w().flightBookings().getLast().locator()));
            assertFalse(end.outcome().success(), "the cheaper connection has too short a layover");
        }
        assertRewrittenAnswerFails(env, r, s -> "Booked.", "record locator");
    }

    @Test
    void bookingOnlyHalfOfATripFails() {
        TaskRequest r = requestFor(env, "trip_package", 4, Split.TEST);
        assertTrue(runTampered(env, r, a -> a).success());
        env.reset(r);
        Guide guide = env.guide();
        Step last = null;
        while (true) {
            Action a = guide.next(last);
            // The trip's hotel is booked first; stop before the flight.
            if (a instanceof Action.CallTools c && c.calls().getFirst().name().equals("book_flight")) {
                last = env.step(new Action.Answer("Confirmation number " + w().hotelBookings().getLast().confirmation()));
                break;
            }
            last = env.step(a);
        }
        assertFalse(last.outcome().success());
        assertTrue(last.outcome().detail().contains("no flight was booked"), last.outcome().detail());
    }

    @Test
    void readOnlyQuestionsFailWhenSomethingIsBooked() {
        TaskRequest r = requestFor(env, "cheapest_nonstop", 1, Split.TEST);
        env.reset(r);
        Flight any = w().layout().flights().stream().filter(f -> f.seats() > 0).findFirst().orElseThrow();
        ok(env, "book_flight", json("flight_id", any.id(), "passenger_name", "Ann Lee"));
        assertAnswerFails(env, String.join(" ", env.task().mustContain()), "did not ask");
        env.reset(r);
        assertAnswerFails(env, env.task().mustContain().get(1) + " " + env.task().mustNotContain().stream().findFirst().orElse("XX 000"));
    }
}
