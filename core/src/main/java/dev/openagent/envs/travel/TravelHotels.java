package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.HotelBooking;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.openagent.envs.kit.TaskDraft.args;
import static dev.openagent.envs.kit.TaskDraft.ref;
import static dev.openagent.envs.kit.TaskDraft.require;

/**
 * Hotels: a hotel's neighbourhood and stars and a stay's total (asked), cancelling a hotel booking, and
 * booking the best-rated hotel within a budget. Targets are preferably hotels whose name another city's
 * hotel shares, so leaving out the city leaves two candidates.
 */
final class TravelHotels {
    private TravelHotels() {}

    static final TaskKind<TravelWorld, TravelTasks> HOTEL_FACTS = TaskKind.<TravelWorld, TravelTasks>of("hotel_facts", 1, TravelHotels::hotelFacts)
            .impossibleBy(TravelRestatements::unknownHotel).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> STAY_TOTAL = TaskKind.<TravelWorld, TravelTasks>of("stay_total", 2, TravelHotels::stayTotal)
            .impossibleBy(TravelRestatements::unknownHotel).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> CANCEL_HOTEL_BOOKING = TaskKind.<TravelWorld, TravelTasks>of("cancel_hotel_booking", 2,
                    TravelHotels::cancelHotelBooking)
            .impossibleBy(TravelRestatements::neverBooked).longerBy(TravelRestatements::longerChain);
    static final TaskKind<TravelWorld, TravelTasks> BUDGET_HOTEL = TaskKind.<TravelWorld, TravelTasks>of("budget_hotel", 3, TravelHotels::budgetHotel)
            .impossibleBy(TravelRestatements::overBudget).longerBy(TravelRestatements::longerChain);

    private static boolean hotelFacts(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        Hotel h = pickHotel(g);
        JsonNode list = t.look("search_hotels", args("city", h.city(), "name", h.name())).get("hotels");
        int k = require(list, "hotel_id", h.id());
        t.query = "Which neighbourhood is the " + h.name() + " in " + h.city() + " in, and how many stars does it have?";
        t.answer = "The " + h.name() + " is in {0:/hotels/" + k + "/neighborhood} and has {0:/hotels/" + k + "/stars} stars.";
        t.must.add(h.neighborhood());
        t.must.add(Integer.toString(h.stars()));
        Hotel twin = twin(g.w, h);
        if (twin != null && !twin.neighborhood().equals(h.neighborhood())) t.mustNot.add(twin.neighborhood());
        cityDetail(t, h, twin != null);
        return true;
    }

    private static boolean stayTotal(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        TravelWorld w = g.w;
        for (Hotel h : Pick.preferring(w.layout().hotels(), g.rnd, x -> twin(w, x) != null, 0.8)) {
            for (int[] stay : stays(g)) {
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
                Hotel twin = twin(w, h);
                if (twin != null && w.available(twin, in, out) && w.stayPrice(twin, in, out) != total) {
                    t.mustNot.add(Integer.toString(w.stayPrice(twin, in, out)));
                }
                cityDetail(t, h, twin != null);
                datesDetail(t, checkIn, checkOut);
                return true;
            }
        }
        return false;
    }

    private static boolean cancelHotelBooking(TravelTasks g) {
        TaskDraft<TravelWorld> t = g.draft;
        TravelWorld w = g.w;
        for (Hotel h : Pick.shuffled(w.layout().hotels(), g.rnd)) {
            for (int[] stay : stays(g)) {
                int in = stay[0];
                int out = stay[1];
                if (!w.available(h, in, out)) continue;
                Hotel other = Pick.any(w.layout().hotels(), g.rnd, x -> !x.city().equals(h.city()) && w.available(x, in, out));
                if (other == null) continue;
                String passenger = g.passenger();
                HotelBooking target = w.bookHotel(h, in, out, passenger, true);
                w.bookHotel(other, in, out, passenger, true);                              // same dates, another city
                Flight flight = Pick.any(w.layout().flights(), g.rnd, f -> w.seatsLeft(f) > 0);
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

    /** The hotel with the most stars whose stay total fits a budget that rules out a better-rated one. */
    private static boolean budgetHotel(TravelTasks g) {
        TravelWorld w = g.w;
        for (String city : Pick.shuffled(w.layout().cities(), g.rnd)) {
            for (int[] stay : stays(g)) {
                List<Hotel> open = TravelTools.hotels(w, city, null, null, 1, stay);
                if (open.size() < 3) continue;
                for (Hotel target : Pick.shuffled(open, g.rnd)) {
                    int total = w.stayPrice(target, stay[0], stay[1]);
                    int budget = (total + 9) / 10 * 10 + 10 * g.rnd.nextInt(3);   // a round figure at or a little above the total
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
                    bookWithinBudget(g, city, stay, open, target, budget);
                    return true;
                }
            }
        }
        return false;
    }

    private static void bookWithinBudget(TravelTasks g, String city, int[] stay, List<Hotel> open, Hotel target, int budget) {
        TaskDraft<TravelWorld> t = g.draft;
        String guest = g.passenger();
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
        expectHotel(t, target, checkIn, checkOut, guest);
        for (Hotel h : open) if (h != target && !h.name().equals(target.name())) t.mustNot.add(h.name());
        datesDetail(t, checkIn, checkOut);
        t.detail("budget", " whose total for the stay is" + budgetText, "budget|price|cost|how much|afford|total",
                "The total must be at most $" + budget + ".", false);
    }

    // ---------------------------------------------------------------- pieces

    /** Stays of one to three nights starting on a travel day, in a random order. */
    private static List<int[]> stays(TravelTasks g) {
        List<int[]> out = new ArrayList<>();
        for (int in = 0; in < TravelWorld.FLIGHT_DAYS; in++) {
            for (int nights = 1; nights <= 3 && in + nights < TravelWorld.DATES.size(); nights++) out.add(new int[]{in, in + nights});
        }
        return Pick.shuffled(out, g.rnd);
    }

    /** The hotel booking the checker expects (also of a trip package). */
    static void expectHotel(TaskDraft<TravelWorld> t, Hotel h, String checkIn, String checkOut, String guest) {
        t.expect.put("hotel_id", h.id());
        t.expect.put("hotel_check_in", checkIn);
        t.expect.put("hotel_check_out", checkOut);
        t.expect.put("hotel_guest", guest);
    }

    private static void datesDetail(TaskDraft<TravelWorld> t, String checkIn, String checkOut) {
        t.detail("dates", " from " + checkIn + " to " + checkOut, "date|dates|when|nights|check in|check-in", "From " + checkIn + " to " + checkOut + ".", false);
    }

    private static void cityDetail(TaskDraft<TravelWorld> t, Hotel h, boolean ambiguous) {
        t.detail("city", " in " + h.city(), "city|where|which one|which hotel|location", "The one in " + h.city() + ".", ambiguous);
    }

    /** A hotel, preferably one whose name a hotel in another city shares. */
    private static Hotel pickHotel(TravelTasks g) {
        List<Hotel> twinned = new ArrayList<>();
        for (Hotel h : g.w.layout().hotels()) if (twin(g.w, h) != null) twinned.add(h);
        List<Hotel> pool = !twinned.isEmpty() && g.rnd.nextDouble() < 0.8 ? twinned : g.w.layout().hotels();
        return pool.get(g.rnd.nextInt(pool.size()));
    }

    /** Another hotel of the same name, or null. */
    private static Hotel twin(TravelWorld w, Hotel h) {
        for (Hotel x : w.layout().hotels()) if (x != h && x.name().equals(h.name())) return x;
        return null;
    }
}
