package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Connection;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.Route;
import dev.openagent.envs.travel.TravelWorld.HotelBooking;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * The travel task generator. Difficulty is the number of dependent calls, with constraints
 * (budget-like fare rules, layover minimums, star ratings) and comparisons at the top:
 * <ol>
 *   <li>cheapest nonstop fare, a flight's times on a date, a hotel's neighbourhood and stars (one call);</li>
 *   <li>a stay's total price, the earliest flight between two cities, cancelling a hotel booking (two or three);</li>
 *   <li>booking the cheapest refundable nonstop, booking the earliest flight between two cities, booking the
 *       best-rated hotel within a budget (three or more);</li>
 *   <li>booking the cheapest connection with a minimum layover, a flight plus the cheapest qualifying hotel,
 *       booking whichever of nonstops and connections arrives first.</li>
 * </ol>
 */
final class TravelTasks {
    static final Map<Integer, List<String>> KINDS = Map.of(
            1, List.of("cheapest_nonstop", "flight_times", "hotel_facts"),
            2, List.of("stay_total", "earliest_between_cities", "cancel_hotel_booking"),
            3, List.of("refundable_flight", "city_flight_booking", "budget_hotel"),
            4, List.of("connection_booking", "trip_package", "earliest_arrival"));

    private final TravelWorld w;
    private final SplittableRandom rnd;
    private final TaskDraft<TravelWorld> t;

    private TravelTasks(TravelWorld w, long seed) {
        this.w = w;
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x7A5E1L));
        this.t = new TaskDraft<>(w, TravelTools.ALL);
    }

    static Task generate(TravelWorld world, TaskRequest request, long seed) {
        TravelTasks g = new TravelTasks(world, seed);
        int difficulty = request.difficulty() == 0 ? 1 + g.rnd.nextInt(4) : request.difficulty();
        String kind = Pick.firstPosed(KINDS.get(difficulty), g.rnd, g::pose, "travel task of difficulty " + difficulty);
        return g.t.build("travel", request, kind, difficulty);
    }

    /** Sets up a task of this kind; false (having changed nothing) when the world cannot pose it. */
    private boolean pose(String kind) {
        return switch (kind) {
            case "cheapest_nonstop" -> cheapestNonstop();
            case "flight_times" -> flightTimes();
            case "hotel_facts" -> hotelFacts();
            case "stay_total" -> stayTotal();
            case "earliest_between_cities" -> earliestBetweenCities(false);
            case "cancel_hotel_booking" -> cancelHotelBooking();
            case "refundable_flight" -> refundableFlight();
            case "city_flight_booking" -> earliestBetweenCities(true);
            case "budget_hotel" -> budgetHotel();
            case "connection_booking" -> connectionBooking();
            case "trip_package" -> tripPackage();
            case "earliest_arrival" -> earliestArrival();
            default -> throw new IllegalStateException(kind);
        };
    }

    /** Every airport pair and day, in a random order, with its nonstop flights (possibly none). */
    private List<Route> routes() {
        return Pick.shuffled(w.map.routes(), rnd);
    }

    /** Flights sorted by fare (then departure). */
    private static List<Flight> byPrice(List<Flight> flights) {
        List<Flight> out = new ArrayList<>(flights);
        out.sort(Comparator.comparingInt(Flight::price).thenComparingInt(Flight::dep));
        return out;
    }

    /** The cheapest flight when it is strictly cheaper than the others, else null. */
    private static Flight uniqueCheapest(List<Flight> flights) {
        if (flights.isEmpty()) return null;
        List<Flight> sorted = byPrice(flights);
        return sorted.size() > 1 && sorted.get(1).price() == sorted.getFirst().price() ? null : sorted.getFirst();
    }

    // ---------------------------------------------------------------- level 1

    private boolean cheapestNonstop() {
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : routes()) {
                Flight cheapest = uniqueCheapest(r.flights());
                if (cheapest == null || (pass == 0 && r.flights().size() < 2)) continue;
                JsonNode list = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
                int k = require(list, "flight_id", cheapest.id());
                t.query = "Which is the cheapest nonstop flight from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                        + ", and what is its fare?";
                t.answer = "The cheapest nonstop is {0:/flights/" + k + "/flight_number} at ${0:/flights/" + k + "/fare}.";
                t.must.add(cheapest.number());
                t.must.add(Integer.toString(cheapest.price()));
                for (Flight f : r.flights()) if (f != cheapest && !f.number().equals(cheapest.number())) t.mustNot.add(f.number());
                dateDetail(r.date(), false);
                return true;
            }
        }
        return false;
    }

    private boolean flightTimes() {
        Flight f = w.map.flights().get(rnd.nextInt(w.map.flights().size()));
        JsonNode list = t.look("search_flights", args("origin", f.origin(), "destination", f.destination(), "date",
                TravelWorld.DATES.get(f.day()))).get("flights");
        int k = require(list, "flight_id", f.id());
        String date = TravelWorld.DATES.get(f.day());
        t.query = "When does flight " + f.number() + " from " + f.origin() + " to " + f.destination() + " depart and arrive on " + date + "?";
        t.answer = f.number() + " departs at {0:/flights/" + k + "/departs} and arrives at {0:/flights/" + k + "/arrives}.";
        t.must.add(TravelWorld.CLOCK[f.dep()]);
        t.must.add(TravelWorld.CLOCK[f.arr()]);
        boolean otherDays = false;
        for (Flight x : w.map.flights()) {
            if (x != f && x.number().equals(f.number())) {
                otherDays = true;
                String dep = TravelWorld.CLOCK[x.dep()];
                if (x.dep() != f.dep() && !t.must.contains(dep) && !t.mustNot.contains(dep)) t.mustNot.add(dep);
            }
        }
        t.detail("date", " on " + date, "date|day|when|which day", "On " + date + ".", otherDays);
        return true;
    }

    private boolean hotelFacts() {
        Hotel h = pickHotel();
        JsonNode list = t.look("search_hotels", args("city", h.city(), "name", h.name())).get("hotels");
        int k = require(list, "hotel_id", h.id());
        t.query = "Which neighbourhood is the " + h.name() + " in " + h.city() + " in, and how many stars does it have?";
        t.answer = "The " + h.name() + " is in {0:/hotels/" + k + "/neighborhood} and has {0:/hotels/" + k + "/stars} stars.";
        t.must.add(h.neighborhood());
        t.must.add(Integer.toString(h.stars()));
        Hotel twin = twin(h);
        if (twin != null && !twin.neighborhood().equals(h.neighborhood())) t.mustNot.add(twin.neighborhood());
        cityDetail(h, twin != null);
        return true;
    }

    // ---------------------------------------------------------------- level 2

    private boolean stayTotal() {
        for (Hotel h : Pick.preferring(w.map.hotels(), rnd, x -> twin(x) != null, 0.8)) {
            for (int[] stay : stays()) {
                int in = stay[0];
                int out = stay[1];
                if (!w.available(h, in, out)) continue;
                JsonNode list = t.look("search_hotels", args("city", h.city(), "name", h.name())).get("hotels");
                int k = require(list, "hotel_id", h.id());
                String checkIn = TravelWorld.DATES.get(in);
                String checkOut = TravelWorld.DATES.get(out);
                t.look("get_hotel_rates", args("check_in", checkIn, "check_out", checkOut), Map.of("hotel_id", ref(0, "/hotels/" + k + "/hotel_id")));
                String stayText = " from " + checkIn + " to " + checkOut;
                t.query = "What would a stay at the " + h.name() + " in " + h.city() + stayText + " cost in total?";
                t.answer = "The stay at the " + h.name() + " costs ${1:/total_price} in total.";
                int total = w.stayPrice(h, in, out);
                t.must.add(Integer.toString(total));
                Hotel twin = twin(h);
                if (twin != null && w.available(twin, in, out) && w.stayPrice(twin, in, out) != total) {
                    t.mustNot.add(Integer.toString(w.stayPrice(twin, in, out)));
                }
                cityDetail(h, twin != null);
                t.detail("dates", stayText, "date|dates|when|nights|check in|check-in", "From " + checkIn + " to " + checkOut + ".", false);
                return true;
            }
        }
        return false;
    }

    /** Stays of one to three nights starting on a travel day, in a random order. */
    private List<int[]> stays() {
        List<int[]> out = new ArrayList<>();
        for (int in = 0; in < TravelWorld.FLIGHT_DAYS; in++) {
            for (int nights = 1; nights <= 3 && in + nights < TravelWorld.DATES.size(); nights++) out.add(new int[]{in, in + nights});
        }
        return Pick.shuffled(out, rnd);
    }

    /** The earliest nonstop between two cities named by the user (their airports looked up first); optionally booked. */
    private boolean earliestBetweenCities(boolean book) {
        for (Route r : routes()) {
            if (r.flights().isEmpty()) continue;
            Flight first = r.flights().getFirst();
            if (book && w.seatsLeft(first) <= 0) continue;
            if (r.flights().size() > 1 && r.flights().get(1).dep() == first.dep()) continue;
            String fromText = placeText(r.from());
            String toText = placeText(r.to());
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
                String passenger = passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(2, "/flights/0/flight_id")));
                t.query = "Book a seat for " + passenger + " on the earliest nonstop flight from " + fromText + " to " + toText + " on "
                        + r.date() + " and give me the record locator.";
                t.answer = "Booked " + passenger + " on {2:/flights/0/flight_number} (departs {2:/flights/0/departs}). Record locator: {"
                        + b + ":/record_locator}.";
                expectFlight(passenger, first);
                passengerDetail(passenger);
            }
            dateDetail(r.date(), false);
            return true;
        }
        return false;
    }

    private boolean cancelHotelBooking() {
        for (Hotel h : Pick.shuffled(w.map.hotels(), rnd)) {
            for (int[] stay : stays()) {
                int in = stay[0];
                int out = stay[1];
                if (!w.available(h, in, out)) continue;
                Hotel other = Pick.any(w.map.hotels(), rnd, x -> !x.city().equals(h.city()) && w.available(x, in, out));
                if (other == null) continue;
                String passenger = passenger();
                HotelBooking target = w.bookHotel(h, in, out, passenger, true);
                w.bookHotel(other, in, out, passenger, true);                              // same dates, another city
                Flight flight = Pick.any(w.map.flights(), rnd, f -> w.seatsLeft(f) > 0);
                if (flight != null) w.bookFlights(passenger, List.of(flight), true);
                JsonNode list = t.look("list_bookings", args("passenger_name", passenger)).get("bookings");
                int k = require(list, "reference", target.confirmation());
                String last = passenger.substring(passenger.lastIndexOf(' ') + 1);
                t.commit("cancel_booking", args("last_name", last), Map.of("reference", ref(0, "/bookings/" + k + "/reference")));
                String checkIn = TravelWorld.DATES.get(in);
                String checkOut = TravelWorld.DATES.get(out);
                String cityText = " in " + h.city();
                t.query = "Please cancel my hotel booking" + cityText + " from " + checkIn + " to " + checkOut + ". My name is " + passenger
                        + ". What is the cancellation code?";
                t.answer = "Booking {0:/bookings/" + k + "/reference} at {0:/bookings/" + k + "/hotel_name} is cancelled; cancellation code {1:/cancellation_code}.";
                t.expect.put("cancel", target.confirmation());
                t.detail("city", cityText, "city|where|which hotel|which booking|which one", "The one in " + h.city() + ".", true);
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- level 3

    private boolean refundableFlight() {
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : routes()) {
                List<Flight> byPrice = byPrice(r.flights());
                int chosen = -1;
                for (int i = 0; i < byPrice.size() && chosen < 0; i++) if (byPrice.get(i).refundable()) chosen = i;
                // The constraint should matter (a cheaper non-refundable fare exists); the choice must be unique and bookable.
                if (chosen < 0 || (pass == 0 && chosen == 0)) continue;
                Flight pick = byPrice.get(chosen);
                if (w.seatsLeft(pick) <= 0) continue;
                if (chosen + 1 < byPrice.size() && byPrice.get(chosen + 1).price() == pick.price() && byPrice.get(chosen + 1).refundable()) continue;
                JsonNode list = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
                for (int i = 0; i <= chosen; i++) {
                    int k = require(list, "flight_id", byPrice.get(i).id());
                    t.look("get_fare_rules", args(), Map.of("flight_id", ref(0, "/flights/" + k + "/flight_id")));
                }
                int rules = t.last();
                String passenger = passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(rules, "/flight_id")));
                t.query = "Book a seat for " + passenger + " on the cheapest refundable nonstop fare from " + name(r.from()) + " to "
                        + name(r.to()) + " on " + r.date() + ". I need the record locator.";
                t.answer = "Booked " + passenger + " on {" + b + ":/flights/0} for ${" + b + ":/total_fare}. Record locator: {" + b + ":/record_locator}.";
                expectFlight(passenger, pick);
                passengerDetail(passenger);
                dateDetail(r.date(), false);
                t.detail("refundable", " refundable", "refundable|refund|cancel|fare type", "It must be a refundable fare.", false);
                return true;
            }
        }
        return false;
    }

    /** The hotel with the most stars whose stay total fits a budget that rules out a better-rated one. */
    private boolean budgetHotel() {
        for (String city : Pick.shuffled(w.map.cities(), rnd)) {
            for (int[] stay : stays()) {
                List<Hotel> open = TravelTools.hotels(w, city, null, null, 1, stay);
                if (open.size() < 3) continue;
                for (Hotel target : Pick.shuffled(open, rnd)) {
                    int total = w.stayPrice(target, stay[0], stay[1]);
                    int budget = (total + 9) / 10 * 10 + 10 * rnd.nextInt(3);   // a round figure at or a little above the total
                    boolean betterExists = false;
                    boolean unique = true;
                    for (Hotel h : open) {
                        if (h == target) continue;
                        int p = w.stayPrice(h, stay[0], stay[1]);
                        betterExists |= h.stars() > target.stars();
                        // Within budget, nothing may beat the target on stars, or tie on stars at no higher total.
                        if (p <= budget && (h.stars() > target.stars() || (h.stars() == target.stars() && p <= total))) unique = false;
                    }
                    if (!betterExists || !unique) continue;
                    bookWithinBudget(city, stay, open, target, budget);
                    return true;
                }
            }
        }
        return false;
    }

    private void bookWithinBudget(String city, int[] stay, List<Hotel> open, Hotel target, int budget) {
        String guest = passenger();
        String checkIn = TravelWorld.DATES.get(stay[0]);
        String checkOut = TravelWorld.DATES.get(stay[1]);
        JsonNode hotels = t.look("search_hotels", args("city", city, "check_in", checkIn, "check_out", checkOut)).get("hotels");
        int targetRates = -1;
        for (int i = 0; i < hotels.size(); i++) {
            JsonNode rates = t.look("get_hotel_rates", args("check_in", checkIn, "check_out", checkOut), Map.of("hotel_id", ref(0, "/hotels/" + i + "/hotel_id")));
            if (rates.get("hotel_id").asText().equals(target.id())) targetRates = t.last();
        }
        int b = t.commit("book_hotel", args("check_in", checkIn, "check_out", checkOut, "guest_name", guest), Map.of("hotel_id", ref(targetRates, "/hotel_id")));
        String budgetText = " at most $" + budget;
        String dates = " from " + checkIn + " to " + checkOut;
        t.query = "Book a room in " + city + dates + " for " + guest + " at the hotel with the most stars whose total for the stay is"
                + budgetText + ". Give me the confirmation number.";
        t.answer = "Booked {" + b + ":/hotel_name} for ${" + b + ":/total_price}. Confirmation number: {" + b + ":/confirmation_number}.";
        t.expect.put("hotel_id", target.id());
        t.expect.put("hotel_check_in", checkIn);
        t.expect.put("hotel_check_out", checkOut);
        t.expect.put("hotel_guest", guest);
        for (Hotel h : open) if (h != target && !h.name().equals(target.name())) t.mustNot.add(h.name());
        t.detail("dates", dates, "date|dates|when|nights|check in|check-in", "From " + checkIn + " to " + checkOut + ".", false);
        t.detail("budget", " whose total for the stay is" + budgetText, "budget|price|cost|how much|afford|total",
                "The total must be at most $" + budget + ".", false);
    }

    // ---------------------------------------------------------------- level 4

    private boolean connectionBooking() {
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : routes()) {
                if (!r.flights().isEmpty()) continue;
                int minimum = List.of(60, 75, 90).get(rnd.nextInt(3));
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
                String passenger = passenger();
                int b = t.commit("book_flight", args("passenger_name", passenger), Map.of(
                        "flight_id", ref(0, "/itineraries/0/first_flight_id"), "connecting_flight_id", ref(0, "/itineraries/0/second_flight_id")));
                String layover = " with a layover of at least " + minimum + " minutes";
                t.query = "There is no nonstop from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date() + ". Book a seat for " + passenger
                        + " on the cheapest one-stop connection" + layover + ", and give me the record locator.";
                t.answer = "Booked " + passenger + " via {0:/itineraries/0/via} ({0:/itineraries/0/layover_minutes}-minute layover) for ${"
                        + b + ":/total_fare}. Record locator: {" + b + ":/record_locator}.";
                t.expect.put("flight_passenger", passenger);
                t.expect.put("flight_ids", best.first().id() + "," + best.second().id());
                passengerDetail(passenger);
                dateDetail(r.date(), false);
                t.detail("layover", layover, "layover|connection time|minutes|stopover", "The layover must be at least " + minimum + " minutes.", false);
                return true;
            }
        }
        return false;
    }

    private boolean tripPackage() {
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : routes()) {
                Flight flight = uniqueCheapest(r.flights());
                if (flight == null || w.seatsLeft(flight) <= 0) continue;
                int in = r.day();
                int nights = 1 + rnd.nextInt(Math.min(3, TravelWorld.DATES.size() - 1 - in));
                int out = in + nights;
                int minStars = 3 + rnd.nextInt(2);
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
                bookTrip(r, flight, in, out, minStars, best);
                return true;
            }
        }
        return false;
    }

    private void bookTrip(Route r, Flight flight, int in, int out, int minStars, Hotel best) {
        String passenger = passenger();
        String city = r.to().city();
        String checkIn = TravelWorld.DATES.get(in);
        String checkOut = TravelWorld.DATES.get(out);
        JsonNode flights = t.look("search_flights", args("origin", r.from().code(), "destination", r.to().code(), "date", r.date())).get("flights");
        int kf = require(flights, "flight_id", flight.id());
        int fb = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(0, "/flights/" + kf + "/flight_id")));
        JsonNode hotels = t.look("search_hotels", args("city", city, "min_stars", minStars, "check_in", checkIn, "check_out", checkOut)).get("hotels");
        int search = t.last();
        int bestRates = -1;
        for (int i = 0; i < hotels.size(); i++) {
            JsonNode rates = t.look("get_hotel_rates", args("check_in", checkIn, "check_out", checkOut),
                    Map.of("hotel_id", ref(search, "/hotels/" + i + "/hotel_id")));
            if (rates.get("hotel_id").asText().equals(best.id())) bestRates = t.last();
        }
        int hb = t.commit("book_hotel", args("check_in", checkIn, "check_out", checkOut, "guest_name", passenger),
                Map.of("hotel_id", ref(bestRates, "/hotel_id")));
        int nights = out - in;
        String stars = " with at least " + minStars + " stars";
        t.query = "Book " + passenger + " on the cheapest nonstop from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                + ", plus " + nights + (nights == 1 ? " night" : " nights") + " from that day at the hotel in " + city + stars
                + " with the lowest total price for the stay. Give me the record locator and the hotel confirmation number.";
        t.answer = "Flight booked, record locator {" + fb + ":/record_locator}. Hotel {" + hb + ":/hotel_name} booked for ${" + hb
                + ":/total_price}, confirmation number {" + hb + ":/confirmation_number}.";
        expectFlight(passenger, flight);
        t.expect.put("hotel_id", best.id());
        t.expect.put("hotel_check_in", checkIn);
        t.expect.put("hotel_check_out", checkOut);
        t.expect.put("hotel_guest", passenger);
        t.detail("stars", stars, "stars|star rating|rating|how nice|quality", "At least " + minStars + " stars.", false);
    }

    private boolean earliestArrival() {
        boolean wantConnection = rnd.nextBoolean();
        for (int pass = 0; pass < 2; pass++) {
            for (Route r : routes()) {
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
                bookEarliest(r, best, bestArr);
                return true;
            }
        }
        return false;
    }

    private void bookEarliest(Route r, Object best, int arrival) {
        String passenger = passenger();
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
            t.expect.put("flight_passenger", passenger);
            t.expect.put("flight_ids", c.first().id() + "," + c.second().id());
        } else {
            Flight f = (Flight) best;
            int k = require(flights, "flight_id", f.id());
            b = t.commit("book_flight", args("passenger_name", passenger), Map.of("flight_id", ref(0, "/flights/" + k + "/flight_id")));
            expectFlight(passenger, f);
        }
        t.query = "Get " + passenger + " from " + name(r.from()) + " to " + name(r.to()) + " on " + r.date()
                + " arriving as early as possible: book whichever arrives first, a nonstop or a one-stop connection. "
                + "Tell me the arrival time and the record locator.";
        t.answer = "Booked " + passenger + ", arriving at " + TravelWorld.CLOCK[arrival] + ". Record locator: {" + b + ":/record_locator}.";
        t.must.add(TravelWorld.CLOCK[arrival]);
        dateDetail(r.date(), false);
    }

    // ---------------------------------------------------------------- pieces

    private void expectFlight(String passenger, Flight f) {
        t.expect.put("flight_passenger", passenger);
        t.expect.put("flight_ids", f.id());
    }

    private void dateDetail(String date, boolean ambiguous) {
        t.detail("date", " on " + date, "date|day|when|which day", "On " + date + ".", ambiguous);
    }

    private void passengerDetail(String passenger) {
        t.detail("passenger", " for " + passenger, "name|passenger|traveller|traveler|who", "The passenger is " + passenger + ".", false);
    }

    private void cityDetail(Hotel h, boolean ambiguous) {
        t.detail("city", " in " + h.city(), "city|where|which one|which hotel|location", "The one in " + h.city() + ".", ambiguous);
    }

    /** How a query names an airport: its name and code. */
    private static String name(Airport a) { return a.name() + " (" + a.code() + ")"; }

    /** The city when it has one airport, else the airport's name (the request must say which one). */
    private String placeText(Airport a) {
        return w.airports(a.city()).size() == 1 ? a.city() : a.name();
    }

    private String passenger() {
        return Names.any(Names.half(TravelNames.FIRST, w.map.split()), rnd) + " " + Names.any(Names.half(TravelNames.LAST, w.map.split()), rnd);
    }

    private Hotel pickHotel() {
        List<Hotel> twinned = new ArrayList<>();
        for (Hotel h : w.map.hotels()) if (twin(h) != null) twinned.add(h);
        List<Hotel> pool = !twinned.isEmpty() && rnd.nextDouble() < 0.8 ? twinned : w.map.hotels();
        return pool.get(rnd.nextInt(pool.size()));
    }

    private Hotel twin(Hotel h) {
        for (Hotel x : w.map.hotels()) if (x != h && x.name().equals(h.name())) return x;
        return null;
    }
}
