package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Route;

import java.util.List;
import java.util.Map;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;
import static dev.openagent.envs.travel.TravelTasks.name;

/**
 * Nonstop flights: the cheapest on a route and a flight's times (asked), the earliest between two
 * cities (asked or booked, the cities' airports looked up first), the cheapest refundable fare (booked).
 */
final class TravelFlights {
    private TravelFlights() {}

    static final TaskKind<TravelWorld, TravelTasks> CHEAPEST_NONSTOP = TaskKind.<TravelWorld, TravelTasks>of("cheapest_nonstop", 1, TravelFlights::cheapestNonstop)
            .impossibleBy(TravelRestatements::outsideSchedule).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> FLIGHT_TIMES = TaskKind.<TravelWorld, TravelTasks>of("flight_times", 1, TravelFlights::flightTimes)
            .impossibleBy(TravelRestatements::outsideSchedule).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> EARLIEST_BETWEEN_CITIES = TaskKind.<TravelWorld, TravelTasks>of("earliest_between_cities", 2,
                    g -> earliestBetweenCities(g, false))
            .impossibleBy(TravelRestatements::outsideSchedule).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> REFUNDABLE_FLIGHT = TaskKind.<TravelWorld, TravelTasks>of("refundable_flight", 3, TravelFlights::refundableFlight)
            .impossibleBy(TravelRestatements::outsideSchedule, TravelRestatements::noRefundableFare).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> CITY_FLIGHT_BOOKING = TaskKind.<TravelWorld, TravelTasks>of("city_flight_booking", 3,
                    g -> earliestBetweenCities(g, true))
            .impossibleBy(TravelRestatements::outsideSchedule).longerBy(TravelRestatements::longerChain);

    private static boolean cheapestNonstop(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : g.routes()) {
                Flight cheapest = TravelTasks.uniqueCheapest(r.flights());
                if (cheapest == null || (pass == 0 && r.flights().size() < 2)) continue;
                JsonNode list = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
                int k = require(list, "flight_id", cheapest.id());
                t.query = "Which is the cheapest nonstop flight from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                        + ", and what is its fare?";
                t.answer = "The cheapest nonstop is {0:/flights/" + k + "/flight_number} at ${0:/flights/" + k + "/fare}.";
                t.must.add(cheapest.number());
                t.must.add(Integer.toString(cheapest.price()));
                for (Flight f : r.flights()) if (f != cheapest && !f.number().equals(cheapest.number())) t.mustNot.add(f.number());
                g.dateDetail(r.date(), false);
                return true;
            }
        }
        return false;
    }

    private static boolean flightTimes(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        List<Flight> all = g.w.layout().flights();
        Flight f = all.get(g.rnd.nextInt(all.size()));
        JsonNode list = t.look("search_flights", args("origin", f.origin(), "destination", f.destination(), "date",
                TravelWorld.DATES.get(f.day()))).get("flights");
        int k = require(list, "flight_id", f.id());
        String date = TravelWorld.DATES.get(f.day());
        t.query = "When does flight " + f.number() + " from " + f.origin() + " to " + f.destination() + " depart and arrive on " + date + "?";
        t.answer = f.number() + " departs at {0:/flights/" + k + "/departs} and arrives at {0:/flights/" + k + "/arrives}.";
        t.must.add(TravelWorld.CLOCK[f.dep()]);
        t.must.add(TravelWorld.CLOCK[f.arr()]);
        boolean otherDays = false;
        for (Flight x : all) {
            if (x != f && x.number().equals(f.number())) {
                otherDays = true;
                String dep = TravelWorld.CLOCK[x.dep()];
                if (x.dep() != f.dep() && !t.must.contains(dep) && !t.mustNot.contains(dep)) t.mustNot.add(dep);
            }
        }
        g.dateDetail(date, otherDays);
        return true;
    }

    /** The earliest nonstop between two cities named by the user (their airports looked up first); optionally booked. */
    private static boolean earliestBetweenCities(TravelTasks g, boolean book) {
        TaskDraft<TravelWorld> t = g.draft;
        for (Route r : g.routes()) {
            if (r.flights().isEmpty()) continue;
            Flight first = r.flights().getFirst();
            if (book && g.w.seatsLeft(first) <= 0) continue;
            if (r.flights().size() > 1 && r.flights().get(1).dep() == first.dep()) continue;
            String fromText = placeText(g.w, r.from());
            String toText = placeText(g.w, r.to());
            JsonNode fromList = t.look("list_airports", args("city", r.from().city())).get("airports");
            int kf = require(fromList, "code", r.from().code());
            JsonNode toList = t.look("list_airports", args("city", r.to().city())).get("airports");
            int kt = require(toList, "code", r.to().code());
            JsonNode flights = t.look("search_flights", args("date", r.date()), Map.of(
                    "origin", ref(0, "/airports/" + kf + "/code"), "destination", ref(1, "/airports/" + kt + "/code"))).get("flights");
            require(flights, "flight_id", first.id());
            if (!book) {
                t.query = "What is the earliest nonstop flight from " + fromText + " to " + toText + " on " + r.date()
                        + "? Tell me the flight number and when it leaves.";
                t.answer = "The earliest nonstop is {2:/flights/0/flight_number}, departing at {2:/flights/0/departs}.";
                t.must.add(first.number());
                t.must.add(TravelWorld.CLOCK[first.dep()]);
                for (Flight f : r.flights()) if (f != first && !f.number().equals(first.number())) t.mustNot.add(f.number());
            } else {
                String passenger = g.passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(2, "/flights/0/flight_id")));
                t.query = "Book a seat for " + passenger + " on the earliest nonstop flight from " + fromText + " to " + toText + " on "
                        + r.date() + " and give me the record locator.";
                t.answer = "Booked " + passenger + " on {2:/flights/0/flight_number} (departs {2:/flights/0/departs}). Record locator: {"
                        + b + ":/record_locator}.";
                g.expectFlight(passenger, first);
                g.passengerDetail(passenger);
            }
            g.dateDetail(r.date(), false);
            return true;
        }
        return false;
    }

    /** The city when it has one airport, else the airport's name (the request must say which one). */
    private static String placeText(TravelWorld w, Airport a) {
        return w.airports(a.city()).size() == 1 ? a.city() : a.name();
    }

    private static boolean refundableFlight(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : g.routes()) {
                List<Flight> byPrice = TravelTasks.byPrice(r.flights());
                int chosen = -1;
                for (int i = 0; i < byPrice.size() && chosen < 0; i++) if (byPrice.get(i).refundable()) chosen = i;
                // The constraint should matter (a cheaper non-refundable fare exists); the choice must be unique and bookable.
                if (chosen < 0 || (pass == 0 && chosen == 0)) continue;
                Flight pick = byPrice.get(chosen);
                if (g.w.seatsLeft(pick) <= 0) continue;
                if (chosen + 1 < byPrice.size() && byPrice.get(chosen + 1).price() == pick.price() && byPrice.get(chosen + 1).refundable()) continue;
                JsonNode list = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
                for (int i = 0; i <= chosen; i++) {
                    int k = require(list, "flight_id", byPrice.get(i).id());
                    t.look("get_fare_rules", args(), Map.of("flight_id", ref(0, "/flights/" + k + "/flight_id")));
                }
                int rules = t.last();
                String passenger = g.passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(rules, "/flight_id")));
                t.query = "Book a seat for " + passenger + " on the cheapest refundable nonstop fare from " + name(r.from()) + " to "
                        + name(r.to()) + " on " + r.date() + ". I need the record locator.";
                t.answer = "Booked " + passenger + " on {" + b + ":/flights/0} for ${" + b + ":/total_fare}. Record locator: {" + b + ":/record_locator}.";
                g.expectFlight(passenger, pick);
                g.passengerDetail(passenger);
                g.dateDetail(r.date(), false);
                t.detail("refundable", " refundable", "refundable|refund|cancel|fare type", "It must be a refundable fare.", false);
                return true;
            }
        }
        return false;
    }
}
