package dev.openagent.envs.travel;

import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.HotelBooking;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

import static dev.openagent.envs.kit.TaskDraft.args;

/**
 * How travel tasks are restated, as their kinds declare ({@link TravelFlights}, {@link TravelHotels},
 * {@link TravelItineraries}): made impossible in the realistic ways this world allows (a date outside the
 * schedule, a hotel that does not exist, a booking never made, no refundable fare that day, a budget
 * below every hotel, a layover longer than any connection, a star rating no hotel with a room has), or
 * reached through the airport list (an airport or a city named through another).
 */
final class TravelRestatements {
    private TravelRestatements() {}

    private static final List<String> OUTSIDE = List.of("2027-04-30", "2027-05-01", "2027-05-02", "2027-05-11", "2027-05-12",
            "2027-05-14", "2027-05-17", "2027-06-03");

    // ---------------------------------------------------------------- impossible

    /** The travel date is outside the week of flights. */
    static Optional<Task> outsideSchedule(Task task, TravelWorld w, SplittableRandom rnd) {
        // The first call that takes the day: a flight search, or a hotel search checking in that day (a trip's hotel comes first).
        String param = null;
        String date = null;
        for (GoldPlan.Call c : task.plan().calls()) {
            for (String p : List.of("date", "check_in")) {
                if (date == null && c.args().has(p)) {
                    param = p;
                    date = c.args().get(p).asText();
                }
            }
        }
        if (date == null || !TaskVariants.once(task.query(), date)) return Optional.empty();
        String other = Names.any(OUTSIDE, rnd);
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), param, other);
        return Optional.of(task.unsolvable(task.query().replace(date, other), probes,
                "No flights are scheduled on " + other + " (the schedule runs " + TravelWorld.DATES.getFirst() + " to "
                        + TravelWorld.DATES.get(TravelWorld.FLIGHT_DAYS - 1) + ").", TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The hotel asked about does not exist in that city: a name of the hotel words that none there has. */
    static Optional<Task> unknownHotel(Task task, TravelWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().getFirst();
        String name = search.args().path("name").asText("");
        String city = search.args().path("city").asText("");
        if (!search.tool().equals("search_hotels") || name.isEmpty() || !TaskVariants.once(task.query(), "the " + name + " in ")) return Optional.empty();
        String fake = null;
        for (int i = 0; i < 100 && fake == null; i++) {
            String candidate = Names.any(TravelNames.HOTEL_STEMS, rnd) + " " + Names.any(TravelNames.HOTEL_TYPES, rnd);
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.layout().hotels().stream().noneMatch(h -> h.city().equals(city) && h.lowerName().contains(lower)) && !task.query().contains(candidate)) fake = candidate;
        }
        if (fake == null) return Optional.empty();
        return Optional.of(task.unsolvable(task.query().replace("the " + name + " in ", "the " + fake + " in "),
                List.of(new GoldPlan.Call("search_hotels", args("city", city, "name", fake))), "There is no " + fake + " in " + city + ".",
                TaskVariants.replaceInDetails(task.details(), name, fake, true)));
    }

    /** The hotel booking to cancel was never made: the traveller has no hotel booking in the city named instead. */
    static Optional<Task> neverBooked(Task task, TravelWorld w, SplittableRandom rnd) {
        String ref = task.expect().get("cancel");
        HotelBooking target = w.hotelBookings.stream().filter(b -> b.confirmation().equals(ref)).findFirst().orElse(null);
        if (target == null) return Optional.empty();
        String city = w.hotel(target.hotelId()).city();
        if (!TaskVariants.once(task.query(), " in " + city + " ")) return Optional.empty();
        List<String> free = new ArrayList<>();
        for (String c : w.layout().cities()) {
            boolean has = w.hotelBookings.stream().anyMatch(b -> b.passenger().equals(target.passenger()) && w.hotel(b.hotelId()).city().equals(c));
            if (!has) free.add(c);
        }
        if (free.isEmpty()) return Optional.empty();
        String other = Names.any(free, rnd);
        return Optional.of(task.unsolvable(task.query().replace(" in " + city + " ", " in " + other + " "),
                List.of(new GoldPlan.Call("list_bookings", args("passenger_name", target.passenger()))),
                target.passenger() + " has no hotel booking in " + other + ".", TaskVariants.replaceInDetails(task.details(), city, other, true)));
    }

    /** No nonstop on the route has a refundable fare on the day named instead. */
    static Optional<Task> noRefundableFare(Task task, TravelWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().getFirst();
        String date = search.args().path("date").asText("");
        String origin = search.args().path("origin").asText("");
        String destination = search.args().path("destination").asText("");
        if (!search.tool().equals("search_flights") || !TaskVariants.once(task.query(), date)) return Optional.empty();
        List<Integer> days = new ArrayList<>();
        for (int d = 0; d < TravelWorld.FLIGHT_DAYS; d++) {
            List<Flight> flights = w.nonstop(origin, destination, d);
            if (flights.stream().noneMatch(Flight::refundable)) days.add(d);
        }
        if (days.isEmpty()) return Optional.empty();
        int day = Names.any(days, rnd);
        String other = TravelWorld.DATES.get(day);
        List<GoldPlan.Call> probes = new ArrayList<>();
        probes.add(new GoldPlan.Call("search_flights", args("origin", origin, "destination", destination, "date", other)));
        for (int i = 0; i < w.nonstop(origin, destination, day).size(); i++) {
            probes.add(new GoldPlan.Call("get_fare_rules", args(), Map.of("flight_id", new Ref(0, "/flights/" + i + "/flight_id"))));
        }
        return Optional.of(task.unsolvable(task.query().replace(date, other), probes,
                "No nonstop from " + origin + " to " + destination + " on " + other + " has a refundable fare.",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The budget is below the total of every hotel with a room for the stay. */
    static Optional<Task> overBudget(Task task, TravelWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().getFirst();
        Detail budget = task.details().stream().filter(d -> d.key().equals("budget")).findFirst().orElse(null);
        if (!search.tool().equals("search_hotels") || budget == null) return Optional.empty();
        String old = budget.span().substring(budget.span().lastIndexOf('$') + 1);
        int[] stay = TravelTools.stay(search.args());
        List<Hotel> open = TravelTools.hotels(w, search.args().path("city").asText(), null, null, 1, stay);
        int cheapest = Integer.MAX_VALUE;
        for (Hotel h : open) cheapest = Math.min(cheapest, w.stayPrice(h, stay[0], stay[1]));
        int limit = Math.max(20, (cheapest - 40) / 10 * 10);
        if (limit >= cheapest) return Optional.empty();
        List<GoldPlan.Call> probes = new ArrayList<>();
        for (GoldPlan.Call c : task.plan().calls()) if (!c.tool().equals("book_hotel")) probes.add(c);
        String span = budget.span().replace("$" + old, "$" + limit);
        return Optional.of(task.unsolvable(task.query().replace(budget.span(), span), probes,
                "No hotel in " + search.args().path("city").asText() + " with a room for those nights costs at most $" + limit + " in total.",
                task.details().stream().map(d -> d == budget ? new Detail(d.key(), span, d.keywords(), "The total must be at most $" + limit + ".", false) : d).toList()));
    }

    /** The minimum layover asked for is longer than any connection's. */
    static Optional<Task> layoverTooLong(Task task, TravelWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().getFirst();
        Detail layover = task.details().stream().filter(d -> d.key().equals("layover")).findFirst().orElse(null);
        if (!search.tool().equals("search_connections") || layover == null) return Optional.empty();
        String origin = search.args().path("origin").asText();
        String destination = search.args().path("destination").asText();
        int day = TravelWorld.day(search.args().path("date").asText());
        int longest = 0;
        for (TravelWorld.Connection c : w.connections(origin, destination, day, TravelWorld.MIN_CONNECTION)) longest = Math.max(longest, c.layover());
        int minimum = (longest / 15 + 1) * 15;
        if (minimum > TravelWorld.MAX_LAYOVER) return Optional.empty();
        int old = search.args().path("min_layover_minutes").asInt();
        String span = layover.span().replace(old + " minutes", minimum + " minutes");
        var args = search.args();
        args.put("min_layover_minutes", minimum);
        return Optional.of(task.unsolvable(task.query().replace(layover.span(), span), List.of(new GoldPlan.Call("search_connections", args)),
                "No one-stop connection from " + origin + " to " + destination + " that day has a layover of at least " + minimum + " minutes.",
                task.details().stream().map(d -> d == layover ? new Detail(d.key(), span, d.keywords(),
                        "The layover must be at least " + minimum + " minutes.", false) : d).toList()));
    }

    /** No hotel in the city with at least the stars named instead has a room for the stay (checked before any booking). */
    static Optional<Task> tooManyStars(Task task, TravelWorld w, SplittableRandom rnd) {
        GoldPlan.Call search = task.plan().calls().stream().filter(c -> c.tool().equals("search_hotels")).findFirst().orElse(null);
        Detail stars = task.details().stream().filter(d -> d.key().equals("stars")).findFirst().orElse(null);
        if (search == null || stars == null) return Optional.empty();
        String city = search.args().path("city").asText();
        int[] stay = TravelTools.stay(search.args());
        int old = search.args().path("min_stars").asInt();
        int more = -1;
        for (int s = old + 1; s <= 5 && more < 0; s++) if (TravelTools.hotels(w, city, null, null, s, stay).isEmpty()) more = s;
        if (more < 0) return Optional.empty();
        String span = stars.span().replace(old + " stars", more + " stars");
        var args = search.args();
        args.put("min_stars", more);
        int s = more;
        return Optional.of(task.unsolvable(task.query().replace(stars.span(), span), List.of(new GoldPlan.Call("search_hotels", args)),
                "No hotel in " + city + " with at least " + more + " stars has a room for those nights.",
                task.details().stream().map(d -> d == stars ? new Detail(d.key(), span, d.keywords(), "At least " + s + " stars.", false) : d).toList()));
    }

    // ---------------------------------------------------------------- longer chain

    /**
     * An airport becomes "the only airport of CITY" (one lookup in the airport list; from severity 2
     * both ends of the trip); a hotel's city becomes "the city of airport CODE".
     */
    static Optional<Chain> longerChain(Task task, TravelWorld w, SplittableRandom rnd, int extra) {
        List<Airport> named = new ArrayList<>();
        for (Airport a : w.layout().airports()) {
            if (w.airports(a.city()).size() == 1 && TaskVariants.once(task.query(), a.name() + " (" + a.code() + ")")) named.add(a);
        }
        if (!named.isEmpty()) {
            String query = task.query();
            List<GoldPlan.Call> hops = new ArrayList<>();
            Airport last = null;
            for (Airport a : Pick.shuffled(named, rnd)) {
                if (last != null && extra < 2) break;
                query = query.replace(a.name() + " (" + a.code() + ")", "the only airport of " + a.city());
                hops.add(new GoldPlan.Call("list_airports", args("city", a.city())));
                last = a;
            }
            return Optional.of(new Chain(query, hops, "/airports/0/code", last.code(), kept(task, query, "")));
        }
        Detail city = task.details().stream().filter(d -> d.key().equals("city")).findFirst().orElse(null);
        String name = city == null ? null : city.span().strip().replaceFirst("^in ", "");
        if (name == null || !w.layout().cities().contains(name) || !TaskVariants.once(task.query(), city.span())) {
            name = null;
            for (String c : w.layout().cities()) if (TaskVariants.once(task.query(), " in " + c + " ")) name = c;
            if (name == null) return Optional.empty();
        }
        String c = name;
        List<Airport> airports = w.layout().airports();
        Airport a = Pick.any(airports, rnd, x -> x.city().equals(c));
        if (a == null) return Optional.empty();
        String query = task.query().replace(" in " + name, " in the city of airport " + a.code());
        return Optional.of(new Chain(query, List.of(new GoldPlan.Call("list_airports", args())),
                "/airports/" + airports.indexOf(a) + "/city", name, kept(task, query, "city")));
    }

    private static List<Detail> kept(Task task, String query, String replacedKey) {
        return task.details().stream().filter(d -> !d.key().equals(replacedKey) && query.contains(d.span())).toList();
    }
}
