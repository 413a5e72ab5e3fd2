package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.envs.poi.PoiWorld.Reservation;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.GoldPlan.Ref;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.domain.Tool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * The POI task generator. Difficulty is the number of dependent hops, with constraints and a
 * comparison at the top:
 * <ol>
 *   <li>rating lookup, count with filters (one call);</li>
 *   <li>phone lookup, opening hours, cancellation (two dependent calls);</li>
 *   <li>booking, nearest-place lookup (three);</li>
 *   <li>multi-constraint booking with a fallback time, booking the closer of two places (four hops).</li>
 * </ol>
 * Targets are chosen among places that have a same-named twin in another city and near-miss
 * neighbours, so a sloppy agent picks the wrong one. Plans are computed by running the read-only
 * tools on the world, so they match what the agent will see.
 */
final class PoiTasks {
    static final Map<Integer, List<String>> KINDS = Map.of(
            1, List.of("rating_lookup", "count_places"),
            2, List.of("phone_lookup", "hours_lookup", "cancel_booking"),
            3, List.of("book_table", "nearest_phone"),
            4, List.of("constrained_booking", "closer_booking"));

    private final PoiWorld w;
    private final SplittableRandom rnd;
    private static final Map<String, Tool<PoiWorld>> TOOLS = new HashMap<>();

    static {
        for (Tool<PoiWorld> t : PoiTools.all()) TOOLS.put(t.name(), t);
    }

    // The task under construction.
    private String query;
    private final List<GoldPlan.Call> calls = new ArrayList<>();
    private String answer;
    private final List<String> must = new ArrayList<>();
    private final List<String> mustNot = new ArrayList<>();
    private final Map<String, String> expect = new LinkedHashMap<>();
    private final List<Detail> details = new ArrayList<>();
    private boolean writes;

    private PoiTasks(PoiWorld w, long seed) {
        this.w = w;
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x7A5C));
    }

    static Task generate(PoiWorld world, TaskRequest request, long seed) {
        return new PoiTasks(world, seed).build(request, seed);
    }

    private Task build(TaskRequest request, long seed) {
        int difficulty = request.difficulty() == 0 ? 1 + rnd.nextInt(4) : request.difficulty();
        List<String> kinds = KINDS.get(difficulty);
        String kind = kinds.get(rnd.nextInt(kinds.size()));
        switch (kind) {
            case "rating_lookup" -> ratingLookup();
            case "count_places" -> countPlaces();
            case "phone_lookup" -> phoneLookup();
            case "hours_lookup" -> hoursLookup();
            case "cancel_booking" -> cancelBooking();
            case "book_table" -> bookTable();
            case "nearest_phone" -> nearestPhone();
            case "constrained_booking" -> constrainedBooking();
            case "closer_booking" -> closerBooking();
            default -> throw new IllegalStateException(kind);
        }
        // A near miss can share a value with the target (two places with one phone number): it is then no near miss.
        mustNot.removeIf(bad -> must.stream().anyMatch(good -> Checks.normalize(good).equals(Checks.normalize(bad))));
        String id = "poi/" + request.split().id() + "/" + request.seed() + "/" + difficulty;
        return new Task(id, "poi", request.split(), request.seed(), kind, difficulty, query,
                GoldPlan.answer(calls, answer), true, must, mustNot, expect, details, Map.of(), writes);
    }

    // ---------------------------------------------------------------- kinds

    private void ratingLookup() {
        Place p = pick(x -> true, true);
        int k = addSearchByName(p);
        query = "What is the rating of " + p.name() + " in " + p.city() + "?";
        answer = p.name() + " in " + p.city() + " is rated {0:/results/" + k + "/rating}.";
        must.add(Double.toString(p.rating()));
        twin(p).filter(t -> t.rating() != p.rating()).ifPresent(t -> mustNot.add(Double.toString(t.rating())));
        cityDetail(p);
    }

    private void countPlaces() {
        for (int attempt = 0; ; attempt++) {
            Place seedPlace = w.places().get(rnd.nextInt(w.places().size()));
            double minRating = List.of(3.5, 4.0, 4.5).get(rnd.nextInt(3));
            ObjectNode args = Json.object();
            args.put("city", seedPlace.city());
            args.put("category", seedPlace.category().id);
            args.put("district", seedPlace.district());
            args.put("min_rating", minRating);
            int n = count(args);
            ObjectNode loose = args.deepCopy();
            loose.remove("min_rating");
            int all = count(loose);
            if ((n == 0 || n == all) && attempt < 40) continue;
            calls.add(new GoldPlan.Call("search_places", args));
            String cat = plural(seedPlace.category());
            query = "How many " + cat + " rated at least " + minRating + " are there in " + seedPlace.city()
                    + ", in the " + seedPlace.district() + " district?";
            answer = "There are {0:/count} " + cat + " rated at least " + minRating + ".";
            must.add(Integer.toString(n));
            if (all != n) mustNot.add(Integer.toString(all));
            details.add(new Detail("district", ", in the " + seedPlace.district() + " district",
                    "district|area|neighborhood|neighbourhood|part of", "The " + seedPlace.district() + " district.", false));
            return;
        }
    }

    private void phoneLookup() {
        Place p = pick(x -> true, true);
        int k = addSearchByName(p);
        calls.add(new GoldPlan.Call("get_place_details", Json.object(), Map.of("place_id", new Ref(0, "/results/" + k + "/place_id"))));
        query = "I need the phone number of " + p.name() + " in " + p.city() + ".";
        answer = "The phone number of " + p.name() + " is {1:/phone}.";
        must.add(p.phone());
        twin(p).ifPresent(t -> mustNot.add(t.phone()));
        cityDetail(p);
    }

    private void hoursLookup() {
        Place p = pick(x -> true, true);
        int day = rnd.nextInt(7);
        String dayName = PoiWorld.DAYS.get(day);
        int k = addSearchByName(p);
        ObjectNode args = Json.object();
        args.put("day", dayName);
        calls.add(new GoldPlan.Call("get_opening_hours", args, Map.of("place_id", new Ref(0, "/results/" + k + "/place_id"))));
        String dayTitle = title(dayName);
        query = "When is " + p.name() + " in " + p.city() + " open on " + dayTitle + "?";
        int[] h = p.hours()[day];
        if (h == null) {
            answer = p.name() + " is closed on " + dayTitle + ".";
            must.add("closed");
        } else {
            answer = p.name() + " is open from {1:/opens} to {1:/closes} on " + dayTitle + ".";
            must.add(PoiWorld.time(h[0]));
            must.add(h[1] == 24 ? "24:00" : PoiWorld.time(h[1]));
            mustNot.add("closed");
        }
        cityDetail(p);
        details.add(new Detail("day", " on " + dayTitle, "day|when|which day", "On " + dayTitle + ".", false));
    }

    private void cancelBooking() {
        Place p = pick(x -> x.category().reservable, true);
        String guest = PoiNames.guest(w.map.split(), rnd);
        int day = openDay(p);
        int otherDay = openDay(p);
        while (otherDay == day) otherDay = openDay(p);
        Place other = pick(x -> x.category().reservable && x != p && x.city().equals(p.city()) && x.hours()[day] != null, false);
        // The target, a near miss at the same place on another day, and another place on the same day.
        Reservation target = w.addExisting(p, PoiWorld.DATES.get(day), PoiWorld.time(p.hours()[day][0] + 1), 2 + rnd.nextInt(4), guest);
        w.addExisting(p, PoiWorld.DATES.get(otherDay), PoiWorld.time(p.hours()[otherDay][0] + 2), 2 + rnd.nextInt(4), guest);
        w.addExisting(other, PoiWorld.DATES.get(day), PoiWorld.time(other.hours()[day][0]), 2 + rnd.nextInt(4), guest);
        ObjectNode find = Json.object();
        find.put("guest_name", guest);
        JsonNode found = run("find_reservations", find).get("reservations");
        int k = indexWhere(found, "reservation_id", target.id());
        calls.add(new GoldPlan.Call("find_reservations", find));
        ObjectNode cancel = Json.object();
        cancel.put("verification_code", target.code());
        calls.add(new GoldPlan.Call("cancel_reservation", cancel, Map.of("reservation_id", new Ref(0, "/reservations/" + k + "/reservation_id"))));
        String date = PoiWorld.DATES.get(day);
        query = "Please cancel my booking at " + p.name() + " in " + p.city() + " on " + date + ". It is under the name "
                + guest + ", verification code " + target.code() + ". Tell me the cancellation code.";
        answer = "Your booking " + "{0:/reservations/" + k + "/reservation_id} is cancelled. Cancellation code: {1:/cancellation_code}.";
        expect.put("cancel", target.id());
        writes = true;
        details.add(new Detail("date", " on " + date, "date|day|when|which booking|which one", "The one on " + date + ".", true));
    }

    private void bookTable() {
        for (int attempt = 0; ; attempt++) {
            Place p = pick(x -> x.category().reservable, true);
            int[] slot = freeSlot(p, 2 + rnd.nextInt(5));
            if (slot == null) {
                if (attempt < 50) continue;
                throw new IllegalStateException("no free slot for a booking task in this world");
            }
            int party = slot[2];
            String guest = PoiNames.guest(w.map.split(), rnd);
            int k = addSearchByName(p);
            Ref id = new Ref(0, "/results/" + k + "/place_id");
            booking(p, slot[0], slot[1], party, guest, id, 1);
            query = "Book a table for " + party + " at " + p.name() + " in " + p.city() + " on " + PoiWorld.DATES.get(slot[0])
                    + " at " + PoiWorld.time(slot[1]) + " under the name " + guest + ".";
            bookingDetails(p, slot[0], slot[1], party, guest, true);
            return;
        }
    }

    private void nearestPhone() {
        for (int attempt = 0; ; attempt++) {
            Place landmark = pick(x -> !x.category().reservable && x.category() != Category.BAKERY, false);
            Category cat = List.of(Category.RESTAURANT, Category.CAFE, Category.BAR).get(rnd.nextInt(3));
            String cuisine = cat == Category.RESTAURANT && rnd.nextBoolean() ? PoiWorld.CUISINES.get(rnd.nextInt(PoiWorld.CUISINES.size())) : null;
            List<Place> near = PoiTools.nearbyResults(w, landmark, cat.id, cuisine, 3);
            boolean unique = near.size() == 1 || (near.size() > 1
                    && PoiWorld.distanceKm(landmark, near.get(1)) - PoiWorld.distanceKm(landmark, near.get(0)) >= 0.2);
            if (near.isEmpty() || !unique || !w.uniqueName(landmark)) {
                if (attempt < 60) continue;
                throw new IllegalStateException("no nearest-place task in this world");
            }
            int k = addSearchByName(landmark);
            ObjectNode args = Json.object();
            args.put("category", cat.id);
            if (cuisine != null) args.put("cuisine", cuisine);
            calls.add(new GoldPlan.Call("find_nearby", args, Map.of("place_id", new Ref(0, "/results/" + k + "/place_id"))));
            calls.add(new GoldPlan.Call("get_place_details", Json.object(), Map.of("place_id", new Ref(1, "/results/0/place_id"))));
            String what = cuisine == null ? cat.id : cuisine + " restaurant";
            query = "I'm at " + landmark.name() + " in " + landmark.city() + ". What is the phone number of the nearest "
                    + what + "?";
            answer = "The nearest " + what + " is {1:/results/0/name}; its phone number is {2:/phone}.";
            must.add(near.get(0).phone());
            if (near.size() > 1) mustNot.add(near.get(1).phone());
            cityDetail(landmark);
            return;
        }
    }

    private void constrainedBooking() {
        for (int attempt = 0; ; attempt++) {
            Place p = pick(x -> x.category() == Category.RESTAURANT, false);
            double minRating = Math.max(3.0, PoiWorld.round1(p.rating() - 0.1 * rnd.nextInt(4)));
            int maxPrice = Math.min(4, p.price() + rnd.nextInt(2));
            ObjectNode args = Json.object();
            args.put("city", p.city());
            args.put("category", "restaurant");
            args.put("cuisine", p.cuisine());
            args.put("min_rating", minRating);
            args.put("max_price", maxPrice);
            boolean withDistrict = count(args) != 1;
            if (withDistrict) args.put("district", p.district());
            if (count(args) != 1) {
                if (attempt < 80) continue;
                throw new IllegalStateException("no constrained-booking task in this world");
            }
            int party = 2 + rnd.nextInt(5);
            boolean fallback = rnd.nextBoolean();
            int[] requested = fallback ? fullSlotWithLater(p, party) : freeSlot(p, party);
            if (requested == null) {
                if (attempt < 80) continue;
                requested = freeSlot(p, party);
                fallback = false;
            }
            int day = requested[0];
            int hour = requested[1];
            String guest = PoiNames.guest(w.map.split(), rnd);
            String date = PoiWorld.DATES.get(day);
            calls.add(new GoldPlan.Call("search_places", args));
            Ref id = new Ref(0, "/results/0/place_id");
            ObjectNode check = slotArgs(date, PoiWorld.time(hour), party);
            calls.add(new GoldPlan.Call("check_availability", check, Map.of("place_id", id)));
            int bookHour = hour;
            if (fallback) {
                bookHour = w.laterTimes(p, day, hour, party).stream().mapToInt(PoiWorld::hour).findFirst().orElseThrow();
                ObjectNode recheck = slotArgs(date, null, party);
                calls.add(new GoldPlan.Call("check_availability", recheck, Map.of("place_id", id, "time", new Ref(1, "/later_times/0"))));
                ObjectNode book = slotArgs(date, null, party);
                book.put("guest_name", guest);
                calls.add(new GoldPlan.Call("make_reservation", book, Map.of("place_id", id, "time", new Ref(1, "/later_times/0"))));
            } else {
                ObjectNode book = slotArgs(date, PoiWorld.time(hour), party);
                book.put("guest_name", guest);
                calls.add(new GoldPlan.Call("make_reservation", book, Map.of("place_id", id)));
            }
            int last = calls.size() - 1;
            answer = "Booked {" + last + ":/place_name} for " + party + " on " + date + " at {" + last + ":/time}. Verification code: {"
                    + last + ":/verification_code}.";
            expectBooking(p, day, bookHour, party, guest);
            query = "Book a table for " + party + " on " + date + " at " + PoiWorld.time(hour) + " under the name " + guest
                    + " at the " + p.cuisine() + " restaurant" + (withDistrict ? " in the " + p.district() + " district of " : " in ")
                    + p.city() + " that is rated at least " + minRating + " and has a price level of at most " + maxPrice
                    + ". If that time is taken, book the earliest later time that day.";
            bookingDetails(p, day, hour, party, guest, false);
            return;
        }
    }

    private void closerBooking() {
        for (int attempt = 0; ; attempt++) {
            Place landmark = pick(x -> !x.category().reservable && x.category() != Category.BAKERY, false);
            List<Place> options = w.places().stream()
                    .filter(x -> x.city().equals(landmark.city()) && x.category().reservable && w.uniqueName(x)).toList();
            if (attempt > 300) throw new IllegalStateException("no closer-booking task in this world");
            if (options.size() < 2 || !w.uniqueName(landmark)) continue;
            Place a = options.get(rnd.nextInt(options.size()));
            Place b = options.get(rnd.nextInt(options.size()));
            double da = PoiWorld.distanceKm(landmark, a);
            double db = PoiWorld.distanceKm(landmark, b);
            if (a == b || Math.abs(da - db) < 0.3) continue;
            Place closer = da < db ? a : b;
            int[] slot = freeSlot(closer, 2 + rnd.nextInt(5));
            if (slot == null) continue;
            int party = slot[2];
            String guest = PoiNames.guest(w.map.split(), rnd);
            int kl = addSearchByName(landmark);
            int ka = addSearchByName(a);
            int kb = addSearchByName(b);
            Ref lid = new Ref(0, "/results/" + kl + "/place_id");
            Ref aid = new Ref(1, "/results/" + ka + "/place_id");
            Ref bid = new Ref(2, "/results/" + kb + "/place_id");
            calls.add(new GoldPlan.Call("get_distance", Json.object(), Map.of("from_place_id", lid, "to_place_id", aid)));
            calls.add(new GoldPlan.Call("get_distance", Json.object(), Map.of("from_place_id", lid, "to_place_id", bid)));
            booking(closer, slot[0], slot[1], party, guest, closer == a ? aid : bid, 5);
            query = "I'll be at " + landmark.name() + " in " + landmark.city() + ". Book a table for " + party + " on "
                    + PoiWorld.DATES.get(slot[0]) + " at " + PoiWorld.time(slot[1]) + " under the name " + guest
                    + " at whichever is closer to it: " + a.name() + " or " + b.name() + ".";
            bookingDetails(closer, slot[0], slot[1], party, guest, false);
            return;
        }
    }

    // ---------------------------------------------------------------- pieces

    /** check_availability then make_reservation on a place id reference; the answer carries the code. */
    private void booking(Place p, int day, int hour, int party, String guest, Ref id, int firstIndex) {
        String date = PoiWorld.DATES.get(day);
        String time = PoiWorld.time(hour);
        calls.add(new GoldPlan.Call("check_availability", slotArgs(date, time, party), Map.of("place_id", id)));
        ObjectNode book = slotArgs(date, time, party);
        book.put("guest_name", guest);
        calls.add(new GoldPlan.Call("make_reservation", book, Map.of("place_id", id)));
        int last = firstIndex + 1;
        answer = "Booked " + p.name() + " for " + party + " on " + date + " at " + time + ". Verification code: {" + last
                + ":/verification_code}.";
        expectBooking(p, day, hour, party, guest);
    }

    private void expectBooking(Place p, int day, int hour, int party, String guest) {
        expect.put("place_id", p.id());
        expect.put("date", PoiWorld.DATES.get(day));
        expect.put("time", PoiWorld.time(hour));
        expect.put("party_size", Integer.toString(party));
        expect.put("guest_name", guest);
        writes = true;
    }

    private void bookingDetails(Place p, int day, int hour, int party, String guest, boolean cityDetail) {
        details.add(new Detail("party_size", "for " + party + " ", "how many|people|party|guests|persons|size", "We are " + party + " people.", false));
        details.add(new Detail("date", " on " + PoiWorld.DATES.get(day), "date|day|when", "On " + PoiWorld.DATES.get(day) + ".", false));
        details.add(new Detail("time", " at " + PoiWorld.time(hour), "time|hour|when|what time", "At " + PoiWorld.time(hour) + ".", false));
        details.add(new Detail("guest_name", " under the name " + guest, "name|who|whose", "The booking should be under " + guest + ".", false));
        if (cityDetail) cityDetail(p);
    }

    private void cityDetail(Place p) {
        details.add(new Detail("city", " in " + p.city(), "city|where|which one|location|town",
                "I mean the one in " + p.city() + ".", twin(p).isPresent()));
    }

    private static ObjectNode slotArgs(String date, String time, int party) {
        ObjectNode o = Json.object();
        o.put("date", date);
        if (time != null) o.put("time", time);
        o.put("party_size", party);
        return o;
    }

    /** Adds search_places(city, name) for the place; returns its index in the results. */
    private int addSearchByName(Place p) {
        ObjectNode args = Json.object();
        args.put("city", p.city());
        args.put("name", p.name());
        int k = PoiTools.searchResults(w, PoiTools.SearchFilter.byName(p)).indexOf(p);
        if (k < 0) throw new IllegalStateException("search does not find " + p.name());
        calls.add(new GoldPlan.Call("search_places", args));
        return k;
    }


    /**
     * A random place matching the filter; with {@code preferTwin}, one that has a same-named twin in
     * another city when there is one (so leaving out the city makes the request ambiguous).
     */
    private Place pick(Predicate<Place> filter, boolean preferTwin) {
        List<Place> pool = w.places().stream().filter(filter).toList();
        if (preferTwin) {
            List<Place> twinned = pool.stream().filter(p -> twin(p).isPresent()).toList();
            if (!twinned.isEmpty() && rnd.nextDouble() < 0.8) pool = twinned;
        }
        return pool.get(rnd.nextInt(pool.size()));
    }

    private java.util.Optional<Place> twin(Place p) {
        return java.util.Optional.ofNullable(w.twin(p));
    }

    private int openDay(Place p) {
        while (true) {
            int day = rnd.nextInt(7);
            if (p.hours()[day] != null) return day;
        }
    }

    /** {day, hour, party} of a slot where the party fits, or null. */
    private int[] freeSlot(Place p, int party) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int day = rnd.nextInt(7);
            int[] h = p.hours()[day];
            if (h == null || h[1] - h[0] < 2) continue;
            int hour = h[0] + rnd.nextInt(h[1] - h[0] - 1);
            if (w.available(p, day, hour, party)) return new int[]{day, hour, party};
        }
        return null;
    }

    /** {day, hour} of a full slot with a later free time the same day, or null. */
    private int[] fullSlotWithLater(Place p, int party) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int day = rnd.nextInt(7);
            int[] h = p.hours()[day];
            if (h == null || h[1] - h[0] < 3) continue;
            int hour = h[0] + rnd.nextInt(h[1] - h[0] - 2);
            if (p.openAt(day, hour) && w.seatsLeft(p, day, hour) < party && !w.laterTimes(p, day, hour, party).isEmpty()) {
                return new int[]{day, hour};
            }
        }
        return null;
    }

    /** How many places search_places returns for these arguments. */
    private int count(ObjectNode args) {
        return PoiTools.searchResults(w, PoiTools.filter(TOOLS.get("search_places").params().validate(args))).size();
    }

    private JsonNode run(String tool, ObjectNode args) {
        Tool<PoiWorld> t = TOOLS.get(tool);
        return t.behaviour().call(w, t.params().validate(args));
    }

    private static int indexWhere(JsonNode array, String field, String value) {
        for (int i = 0; i < array.size(); i++) if (array.get(i).path(field).asText().equals(value)) return i;
        return -1;
    }

    private static String plural(Category c) {
        return switch (c) {
            case CAFE -> "cafes";
            case BAKERY -> "bakeries";
            case RESTAURANT -> "restaurants";
            default -> c.id + "s";
        };
    }

    private static String title(String s) {
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
