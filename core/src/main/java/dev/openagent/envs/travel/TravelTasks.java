package dev.openagent.envs.travel;

import dev.openagent.envs.kit.TaskGenerator;
import dev.openagent.envs.kit.TaskKinds;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Route;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
 * The kinds are declared by family ({@link TravelFlights}, {@link TravelHotels}, {@link TravelItineraries}), with
 * how each is made impossible or restated through a longer chain ({@link TravelRestatements}). This class
 * holds what the families share: the episode's world, the random stream and the task being drafted.
 */
final class TravelTasks extends TaskGenerator<TravelWorld> {
    /** Every kind, by difficulty; within a level in the order a kind is drawn from. */
    static final TaskKinds<TravelWorld, TravelTasks> KINDS = new TaskKinds<>(
            TravelFlights.CHEAPEST_NONSTOP, TravelFlights.FLIGHT_TIMES, TravelHotels.HOTEL_FACTS,
            TravelHotels.STAY_TOTAL, TravelFlights.EARLIEST_BETWEEN_CITIES, TravelHotels.CANCEL_HOTEL_BOOKING,
            TravelFlights.REFUNDABLE_FLIGHT, TravelFlights.CITY_FLIGHT_BOOKING, TravelHotels.BUDGET_HOTEL,
            TravelItineraries.CONNECTION_BOOKING, TravelItineraries.TRIP_PACKAGE, TravelItineraries.EARLIEST_ARRIVAL);

    private TravelTasks(TravelWorld w, long seed) {
        super(w, seed, 0x7A5E1L, TravelTools.ALL);
    }

    static Task generate(TravelWorld world, TaskRequest request, long seed) {
        TravelTasks g = new TravelTasks(world, seed);
        return KINDS.task("travel", request, g, g.rnd, g.draft);
    }

    // ---------------------------------------------------------------- what the families share

    /** Every airport pair and day, in a random order, with its nonstop flights (possibly none). */
    List<Route> routes() {
        return Pick.shuffled(w.layout().routes(), rnd);
    }

    /** Flights sorted by fare (then departure). */
    static List<Flight> byPrice(List<Flight> flights) {
        List<Flight> out = new ArrayList<>(flights);
        out.sort(Comparator.comparingInt(Flight::price).thenComparingInt(Flight::dep));
        return out;
    }

    /** The cheapest flight when it is strictly cheaper than the others, else null. */
    static Flight uniqueCheapest(List<Flight> flights) {
        if (flights.isEmpty()) return null;
        List<Flight> sorted = byPrice(flights);
        return sorted.size() > 1 && sorted.get(1).price() == sorted.getFirst().price() ? null : sorted.getFirst();
    }

    /** A traveller's full name from this split's half of the name pools. */
    String passenger() {
        return Names.any(Names.half(TravelNames.FIRST, w.layout().split()), rnd) + " " + Names.any(Names.half(TravelNames.LAST, w.layout().split()), rnd);
    }

    /** How a query names an airport: its name and code. */
    static String name(Airport a) { return a.name() + " (" + a.code() + ")"; }

    void expectFlight(String passenger, Flight f) {
        draft.expect.put("flight_passenger", passenger);
        draft.expect.put("flight_ids", f.id());
    }

    void dateDetail(String date, boolean ambiguous) {
        draft.detail("date", " on " + date, "date|day|when|which day", "On " + date + ".", ambiguous);
    }

    void passengerDetail(String passenger) {
        draft.detail("passenger", " for " + passenger, "name|passenger|traveller|traveler|who", "The passenger is " + passenger + ".", false);
    }
}
