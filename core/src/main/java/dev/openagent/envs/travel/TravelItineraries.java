package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.travel.TravelWorld.Connection;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.Route;

import java.util.List;
import java.util.Map;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;
import static dev.openagent.envs.travel.TravelTasks.name;

/**
 * Itineraries booked under constraints, the top level: the cheapest one-stop connection with a minimum
 * layover, a flight plus the cheapest hotel with enough stars at the destination, and whichever of the
 * nonstops and connections arrives first.
 */
final class TravelItineraries {
    private TravelItineraries() {}

    static final TaskKind<TravelWorld, TravelTasks> CONNECTION_BOOKING = TaskKind.<TravelWorld, TravelTasks>of("connection_booking", 4,
                    TravelItineraries::connectionBooking)
            .impossibleBy(TravelRestatements::outsideSchedule, TravelRestatements::layoverTooLong).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> TRIP_PACKAGE = TaskKind.<TravelWorld, TravelTasks>of("trip_package", 4, TravelItineraries::tripPackage)
            .impossibleBy(TravelRestatements::outsideSchedule, TravelRestatements::tooManyStars).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> EARLIEST_ARRIVAL = TaskKind.<TravelWorld, TravelTasks>of("earliest_arrival", 4,
                    TravelItineraries::earliestArrival)
            .impossibleBy(TravelRestatements::outsideSchedule).longerBy(TravelRestatements::longerChain);

    private static boolean connectionBooking(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        TravelWorld w = g.w;
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : g.routes()) {
                if (!r.flights().isEmpty()) continue;
                int minimum = List.of(60, 75, 90).get(g.rnd.nextInt(3));
                List<Connection> ok = w.connections(r.from().code(), r.to().code(), r.day(), minimum);
                if (ok.isEmpty()) continue;
                Connection best = ok.getFirst();
                List<Connection> all = w.connections(r.from().code(), r.to().code(), r.day(), TravelWorld.MIN_CONNECTION);
                boolean matters = all.getFirst().layover() < minimum;   // the cheapest connection overall is too tight
                if (pass == 0 && !matters) continue;
                if (ok.size() > 1 && ok.get(1).price() == best.price()) continue;
                if (w.seatsLeft(best.first()) <= 0 || w.seatsLeft(best.second()) <= 0) continue;
                t.look("search_connections", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date(),
                        "min_layover_minutes", minimum));
                String passenger = g.passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of(
                        "flight_id", ref(0, "/itineraries/0/first_flight_id"), "connecting_flight_id", ref(0, "/itineraries/0/second_flight_id")));
                String layover = " with a layover of at least " + minimum + " minutes";
                t.query = "There is no nonstop from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date() + ". Book a seat for " + passenger
                        + " on the cheapest one-stop connection" + layover + ", and give me the record locator.";
                t.answer = "Booked " + passenger + " via {0:/itineraries/0/via} ({0:/itineraries/0/layover_minutes}-minute layover) for ${"
                        + b + ":/total_fare}. Record locator: {" + b + ":/record_locator}.";
                expectConnection(t, passenger, best);
                g.passengerDetail(passenger);
                g.dateDetail(r.date(), false);
                t.detail("layover", layover, "layover|connection time|minutes|stopover", "The layover must be at least " + minimum + " minutes.", false);
                return true;
            }
        }
        return false;
    }

    private static boolean tripPackage(TravelTasks g) {
        TravelWorld w = g.w;
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : g.routes()) {
                Flight flight = TravelTasks.uniqueCheapest(r.flights());
                if (flight == null || w.seatsLeft(flight) <= 0) continue;
                int in = r.day();
                int nights = 1 + g.rnd.nextInt(Math.min(3, TravelWorld.DATES.size() - 1 - in));
                int out = in + nights;
                int minStars = 3 + g.rnd.nextInt(2);
                String city = r.to().city();
                List<Hotel> candidates = TravelTools.hotels(w, city, null, null, minStars, new int[]{in, out});
                if (candidates.isEmpty() || (pass == 0 && candidates.size() < 2)) continue;
                Hotel best = null;
                boolean tie = false;
                for (Hotel h : candidates) {
                    int p = w.stayPrice(h, in, out);
                    if (best == null || p < w.stayPrice(best, in, out)) {
                        best = h;
                        tie = false;
                    } else if (p == w.stayPrice(best, in, out)) {
                        tie = true;
                    }
                }
                if (tie) continue;
                bookTrip(g, r, flight, in, out, minStars, best);
                return true;
            }
        }
        return false;
    }

    private static void bookTrip(TravelTasks g, Route r, Flight flight, int in, int out, int minStars, Hotel best) {
        TaskDraft<TravelWorld> t = g.draft;
        String passenger = g.passenger();
        String city = r.to().city();
        String checkIn = TravelWorld.DATES.get(in);
        String checkOut = TravelWorld.DATES.get(out);
        int nights = out - in;
        // The hotel first: its search and rates are the long part, so both codes the answer needs are among the
        // last turns (a record locator booked first had left a pointer's context by the time the hotel was booked).
        // "N nights from that day": the tools take the nights and compute the check-out, which no text states.
        JsonNode hotels = t.look("search_hotels", args("city", city, "min_stars", minStars, "check_in", checkIn, "nights", nights)).get("hotels");
        int search = t.last();
        int bestRates = -1;
        for (int i = 0; i < hotels.size(); i++) {
            JsonNode rates = t.look("get_hotel_rates", args("check_in", checkIn, "nights", nights),
                    Map.of("hotel_id", ref(search, "/hotels/" + i + "/hotel_id")));
            if (rates.get("hotel_id").asText().equals(best.id())) bestRates = t.last();
        }
        int hb = t.commit("book_hotel", args("check_in", checkIn, "nights", nights, "guest_name", passenger),
                Map.of("hotel_id", ref(bestRates, "/hotel_id")));
        JsonNode flights = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
        int kf = require(flights, "flight_id", flight.id());
        int fb = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(t.last(), "/flights/" + kf + "/flight_id")));
        String stars = " with at least " + minStars + " stars";
        t.query = "Book " + passenger + " on the cheapest nonstop from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                + ", plus " + nights + (nights == 1 ? " night" : " nights") + " from that day at the hotel in " + city + stars
                + " with the lowest total price for the stay. Give me the record locator and the hotel confirmation number.";
        t.answer = "Flight booked, record locator {" + fb + ":/record_locator}. Hotel {" + hb + ":/hotel_name} booked for ${" + hb
                + ":/total_price}, confirmation number {" + hb + ":/confirmation_number}.";
        g.expectFlight(passenger, flight);
        TravelHotels.expectHotel(t, best, checkIn, checkOut, passenger);
        t.detail("stars", stars, "stars|star rating|rating|how nice|quality", "At least " + minStars + " stars.", false);
    }

    private static boolean earliestArrival(TravelTasks g) {
        TravelWorld w = g.w;
        boolean wantConnection = g.rnd.nextBoolean();
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : g.routes()) {
                if (r.flights().isEmpty()) continue;
                List<Connection> connections = w.connections(r.from().code(), r.to().code(), r.day(), TravelWorld.MIN_CONNECTION);
                if (connections.isEmpty()) continue;
                List<Connection> shown = connections.subList(0, Math.min(8, connections.size()));
                // Candidates as the tools show them; the earliest arrival must be unique and bookable.
                int bestArr = Integer.MAX_VALUE;
                Object best = null;
                boolean tie = false;
                for (Flight f : r.flights()) {
                    if (f.arr() < bestArr) { bestArr = f.arr(); best = f; tie = false; } else if (f.arr() == bestArr) tie = true;
                }
                for (Connection c : shown) {
                    if (c.second().arr() < bestArr) { bestArr = c.second().arr(); best = c; tie = false; } else if (c.second().arr() == bestArr) tie = true;
                }
                if (tie || (pass == 0 && (best instanceof Connection) != wantConnection)) continue;
                boolean bookable = best instanceof Connection c ? w.seatsLeft(c.first()) > 0 && w.seatsLeft(c.second()) > 0
                        : w.seatsLeft((Flight) best) > 0;
                if (!bookable) continue;
                bookEarliest(g, r, best, bestArr);
                return true;
            }
        }
        return false;
    }

    private static void bookEarliest(TravelTasks g, Route r, Object best, int arrival) {
        TaskDraft<TravelWorld> t = g.draft;
        String passenger = g.passenger();
        JsonNode flights = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
        JsonNode itineraries = t.look("search_connections", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("itineraries");
        int b;
        if (best instanceof Connection c) {
            int k = -1;
            for (int i = 0; i < itineraries.size() && k < 0; i++) {
                JsonNode it = itineraries.get(i);
                if (it.get("first_flight_id").asText().equals(c.first().id()) && it.get("second_flight_id").asText().equals(c.second().id())) k = i;
            }
            if (k < 0) throw new IllegalStateException("connection not listed: " + c);
            b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(1, "/itineraries/" + k + "/first_flight_id"),
                    "connecting_flight_id", ref(1, "/itineraries/" + k + "/second_flight_id")));
            expectConnection(t, passenger, c);
        } else {
            Flight f = (Flight) best;
            int k = require(flights, "flight_id", f.id());
            b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(0, "/flights/" + k + "/flight_id")));
            g.expectFlight(passenger, f);
        }
        t.query = "Get " + passenger + " from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                + " arriving as early as possible: book whichever arrives first, a nonstop or a one-stop connection. "
                + "Tell me the arrival time and the record locator.";
        // The booking states the arrival, so the answer reads it there rather than among the searches' times.
        t.answer = "Booked " + passenger + ", arriving at {" + b + ":/arrives}. Record locator: {" + b + ":/record_locator}.";
        t.must.add(TravelWorld.CLOCK[arrival]);
        g.dateDetail(r.date(), false);
    }

    private static void expectConnection(TaskDraft<TravelWorld> t, String passenger, Connection c) {
        t.expect.put("flight_passenger", passenger);
        t.expect.put("flight_ids", c.first().id() + "," + c.second().id());
    }
}
