package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.envs.poi.PoiWorld.Reservation;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.domain.Args;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The POI tools: each one's name, description, parameters and behaviour side by side.
 * Descriptions overlap on purpose (details vs opening hours, search vs nearby) so choosing a tool
 * takes reading, not keyword matching.
 */
final class PoiTools {
    private PoiTools() {}

    static final Param PLACE_ID = Param.string("place_id", "Place id as returned by a search, e.g. P1234.");
    static final Param DATE = Param.string("date", "Date as YYYY-MM-DD.");
    static final Param TIME = Param.string("time", "Time as HH:00 (whole hours, 24-hour clock).");
    static final Param PARTY = Param.integer("party_size", "Number of people.", 1, 20);


    /** The rule a booking follows, stated in the domain rules and declared on make_reservation. */
    static final String BOOK_AFTER_CHECK = "A booking needs a successful availability check (check_availability) of the same place, date, time and party size first.";

    private static List<Tool<PoiWorld>> build() {
        return List.of(
                new Tool<>("search_places",
                        "Search places. Filter by city, category, district, cuisine, a name fragment, minimum rating or maximum price level. "
                                + "Returns matching places (id, name, city, district, category, rating, price level) ordered by name.",
                        Params.of(
                                Param.string("city", "City to search in; omit to search every city.").optional(),
                                Param.oneOf("category", "Kind of place.", Category.IDS).optional(),
                                Param.string("district", "District within the city.").optional(),
                                Param.oneOf("cuisine", "Cuisine (restaurants only).", PoiWorld.CUISINES).optional(),
                                Param.string("name", "Part of the place's name, case-insensitive.").optional(),
                                Param.number("min_rating", "Only places rated at least this (0-5).", 0, 5).optional(),
                                Param.integer("max_price", "Only places with price level at most this (1 cheap - 4 expensive).", 1, 4).optional()),
                        PoiTools::search).readOnly(),
                new Tool<>("get_place_details",
                        "Full record of one place: address, phone, rating, price level, cuisine, capacity, coordinates and weekly opening hours.",
                        Params.of(PLACE_ID), PoiTools::details).readOnly()
                        .recordOf("place_id", "name", "category", "cuisine", "city", "district", "address", "phone", "rating", "price_level"),
                new Tool<>("get_opening_hours",
                        "Opening and closing time of one place on one day of the week.",
                        Params.of(PLACE_ID, Param.oneOf("day", "Day of the week.", PoiWorld.DAYS)), PoiTools::openingHours).readOnly()
                        .orVia(HOURS_FROM_DETAILS),
                new Tool<>("get_distance",
                        "Street distance in km and travel time between two places in the same city.",
                        Params.of(Param.string("from_place_id", "Place id of the origin."),
                                Param.string("to_place_id", "Place id of the destination."),
                                Param.oneOf("mode", "Travel mode (default walk).", List.of("walk", "drive", "transit")).optional()),
                        PoiTools::distance).readOnly().orVia(DISTANCE_FROM_NEARBY),
                new Tool<>("find_nearby",
                        "Places of a category near a given place, nearest first, with their distance in km.",
                        Params.of(PLACE_ID,
                                Param.oneOf("category", "Kind of place to look for.", Category.IDS),
                                Param.oneOf("cuisine", "Cuisine (restaurants only).", PoiWorld.CUISINES).optional(),
                                Param.number("radius_km", "Search radius in km (default 3).", 0.1, 20).optional()),
                        PoiTools::nearby).readOnly(),
                new Tool<>("check_availability",
                        "Whether a place can seat a party at a date and time; lists later free times that day. "
                                + "A booking needs a successful check of the same slot first.",
                        Params.of(PLACE_ID, DATE, TIME, PARTY), PoiTools::availability),
                new Tool<>("make_reservation",
                        "Book a table. Requires a successful availability check of the same slot. Returns the reservation id and its verification code.",
                        Params.of(PLACE_ID, DATE, TIME, PARTY, Param.string("guest_name", "Name the booking is under.")),
                        PoiTools::reserve).after("check_availability").personName("guest_name"),
                new Tool<>("find_reservations",
                        "Reservations under a guest name: id, place, date, time, party size and status.",
                        Params.of(Param.string("guest_name", "Name the booking is under.")), PoiTools::findReservations).readOnly()
                        .personName("guest_name"),
                new Tool<>("get_reservation",
                        "One reservation by id: place, date, time, party size and status.",
                        Params.of(Param.string("reservation_id", "Reservation id, e.g. R-12345.")), PoiTools::getReservation).readOnly()
                        .recordOf("reservation_id", "place_id", "place_name", "date", "time", "party_size", "guest_name", "status"),
                new Tool<>("cancel_reservation",
                        "Cancel a reservation. Needs its id and the verification code issued when it was made. Returns a cancellation code.",
                        Params.of(Param.string("reservation_id", "Reservation id, e.g. R-12345."),
                                Param.string("verification_code", "Verification code of the booking.")),
                        PoiTools::cancel).undoes("make_reservation"),
                new Tool<>("get_reviews",
                        "Recent visitor reviews of a place with their star ratings.",
                        Params.of(PLACE_ID), PoiTools::reviews).readOnly(),
                new Tool<>("list_districts",
                        "Districts of a city.",
                        Params.of(Param.string("city", "City name.")), PoiTools::districts).readOnly());
    }

    // ---------------------------------------------------------------- other paths

    /** Opening hours of one day: from the weekly hours in the place details. */
    private static final Alternative HOURS_FROM_DETAILS = Alternative.of(
            args -> List.of(new GoldPlan.Call("get_place_details", TaskDraft.args("place_id", args.path("place_id").asText("")))),
            (args, results) -> {
                String day = args.path("day").asText("");
                String hours = results.getFirst().path("opening_hours").path(day).asText("closed");
                ObjectNode out = Json.object("place_id", args.path("place_id").asText(""), "day", day, "open", !hours.equals("closed"));
                if (!hours.equals("closed")) {
                    out.put("opens", hours.substring(0, hours.indexOf('-')));
                    out.put("closes", hours.substring(hours.indexOf('-') + 1));
                }
                return out;
            });

    /** Distance between two places: the destination's category, then a nearby search from the origin. */
    private static final Alternative DISTANCE_FROM_NEARBY = Alternative.of(
            args -> List.of(new GoldPlan.Call("get_place_details", TaskDraft.args("place_id", args.path("to_place_id").asText(""))),
                    new GoldPlan.Call("find_nearby", TaskDraft.args("place_id", args.path("from_place_id").asText(""), "radius_km", 20),
                            Map.of("category", new GoldPlan.Ref(0, "/category")))),
            (args, results) -> {
                String to = args.path("to_place_id").asText("");
                ObjectNode out = Json.object();
                out.put("from_place_id", args.path("from_place_id").asText(""));
                out.put("to_place_id", to);
                for (JsonNode r : results.get(1).path("results")) {
                    if (!r.path("place_id").asText().equals(to)) continue;
                    String mode = args.path("mode").asText("walk");
                    out.set("distance_km", r.get("distance_km"));
                    out.put("mode", mode);
                    out.put("minutes", minutes(mode, r.path("distance_km").asDouble()));
                }
                return out;
            });

    /** Built once, after the other paths it names: tools are immutable and shared by every episode. */
    static final List<Tool<PoiWorld>> ALL = build();

    // ---------------------------------------------------------------- behaviours

    /** What search_places filters on; null / 0 / 4 mean "any". */
    record SearchFilter(String city, Category category, String district, String cuisine, String name,
                        double minRating, int maxPrice) {
        static SearchFilter byName(Place p) {
            return new SearchFilter(p.city(), null, null, null, p.name(), 0, 4);
        }
    }

    static SearchFilter filter(Args a) {
        return new SearchFilter(a.string("city", null), a.has("category") ? Category.of(a.string("category")) : null,
                a.string("district", null), a.string("cuisine", null), a.string("name", null),
                a.number("min_rating", 0), a.integer("max_price", 4));
    }

    /** The places a search returns, ordered by name then city; the task generator uses it too, so plans match the tool. */
    static List<Place> searchResults(PoiWorld w, SearchFilter f) {
        List<Place> pool = w.places();
        if (f.city() != null) {
            pool = w.placesIn(f.city());
            if (pool == null) throw ToolFailure.domain("unknown city '" + f.city() + "'");
        }
        String name = f.name() == null ? null : f.name().toLowerCase(Locale.ROOT).strip();
        List<Place> out = new ArrayList<>();
        for (Place p : pool) {
            if (f.category() != null && p.category() != f.category()) continue;
            if (f.district() != null && !p.district().equalsIgnoreCase(f.district())) continue;
            if (f.cuisine() != null && !f.cuisine().equals(p.cuisine())) continue;
            if (name != null && !p.lowerName().contains(name)) continue;
            if (p.rating() < f.minRating() || p.price() > f.maxPrice()) continue;
            out.add(p);
        }
        // Places are stored in name order (then city), so the results are already sorted.
        return out;
    }

    private static ObjectNode search(PoiWorld w, Args a) {
        List<Place> found = searchResults(w, filter(a));
        return Json.counted(Json.object(), "results", found, p -> Json.object("place_id", p.id(), "name", p.name(), "city", p.city(),
                "district", p.district(), "category", p.category().id, "rating", p.rating(), "price_level", p.price()));
    }

    static Place place(PoiWorld w, String id) {
        Place p = w.place(id);
        if (p == null) throw ToolFailure.domain("no place with id '" + id + "'");
        return p;
    }

    private static ObjectNode details(PoiWorld w, Args a) {
        Place p = place(w, a.string("place_id"));
        ObjectNode out = Json.object("place_id", p.id(), "name", p.name(), "category", p.category().id);
        if (p.cuisine() != null) out.put("cuisine", p.cuisine());
        out.put("city", p.city());
        out.put("district", p.district());
        out.put("address", p.address());
        out.put("phone", p.phone());
        out.put("rating", p.rating());
        out.put("price_level", p.price());
        out.put("takes_reservations", p.category().reservable);
        if (p.category().reservable) out.put("capacity", p.capacity());
        ObjectNode loc = out.putObject("location");
        loc.put("x_km", p.x());
        loc.put("y_km", p.y());
        ObjectNode hours = out.putObject("opening_hours");
        for (int d = 0; d < 7; d++) hours.put(PoiWorld.DAYS.get(d), hoursText(p, d));
        return out;
    }

    static String hoursText(Place p, int day) {
        int[] h = p.hours()[day];
        return h == null ? "closed" : PoiWorld.time(h[0]) + "-" + (h[1] == 24 ? "24:00" : PoiWorld.time(h[1]));
    }

    private static ObjectNode openingHours(PoiWorld w, Args a) {
        Place p = place(w, a.string("place_id"));
        int day = PoiWorld.DAYS.indexOf(a.string("day"));
        int[] h = p.hours()[day];
        ObjectNode out = Json.object("place_id", p.id(), "day", a.string("day"), "open", h != null);
        if (h != null) {
            out.put("opens", PoiWorld.time(h[0]));
            out.put("closes", h[1] == 24 ? "24:00" : PoiWorld.time(h[1]));
        }
        return out;
    }

    private static ObjectNode distance(PoiWorld w, Args a) {
        Place from = place(w, a.string("from_place_id"));
        Place to = place(w, a.string("to_place_id"));
        if (!from.city().equals(to.city())) throw ToolFailure.domain("the two places are in different cities");
        String mode = a.string("mode", "walk");
        double km = PoiWorld.distanceKm(from, to);
        ObjectNode out = Json.object("from_place_id", from.id(), "to_place_id", to.id(), "distance_km", km, "mode", mode,
                "minutes", minutes(mode, km));
        return out;
    }

    /** Travel time in minutes over a street distance. */
    static int minutes(String mode, double km) {
        return switch (mode) {
            case "drive" -> (int) Math.round(4 + km * 3);
            case "transit" -> (int) Math.round(6 + km * 5);
            default -> (int) Math.round(km * 12);
        };
    }

    /** Nearby places, nearest first; shared with the task generator. */
    static List<Place> nearbyResults(PoiWorld w, Place origin, String category, String cuisine, double radius) {
        List<Place> out = new ArrayList<>();
        for (Place p : w.places()) {
            if (p == origin || !p.city().equals(origin.city()) || !p.category().id.equals(category)) continue;
            if (cuisine != null && !cuisine.equals(p.cuisine())) continue;
            if (PoiWorld.distanceKm(origin, p) <= radius) out.add(p);
        }
        out.sort(Comparator.comparingDouble((Place p) -> PoiWorld.distanceKm(origin, p)).thenComparing(Place::id));
        return out;
    }

    private static ObjectNode nearby(PoiWorld w, Args a) {
        Place origin = place(w, a.string("place_id"));
        List<Place> found = nearbyResults(w, origin, a.string("category"), a.string("cuisine", null), a.number("radius_km", 3));
        return Json.counted(Json.object("origin", origin.id()), "results", found, p -> Json.object("place_id", p.id(), "name", p.name(),
                "distance_km", PoiWorld.distanceKm(origin, p), "rating", p.rating()));
    }

    private record Slot(Place place, int day, int hour, int party) {
        String key() { return place.id() + "|" + day + "|" + hour + "|" + party; }
    }

    private static Slot slot(PoiWorld w, Args a) {
        Place p = place(w, a.string("place_id"));
        int day = PoiWorld.DATES.indexOf(a.string("date"));
        if (day < 0) throw ToolFailure.domain("date '" + a.string("date") + "' is outside the bookable week "
                + PoiWorld.DATES.get(0) + " to " + PoiWorld.DATES.get(6));
        int hour = PoiWorld.hour(a.string("time"));
        if (hour < 0) throw ToolFailure.domain("time must be a whole hour as HH:00, got '" + a.string("time") + "'");
        if (!p.category().reservable) throw ToolFailure.domain(p.name() + " does not take reservations");
        return new Slot(p, day, hour, a.integer("party_size"));
    }

    private static ObjectNode availability(PoiWorld w, Args a) {
        Slot s = slot(w, a);
        boolean ok = w.available(s.place(), s.day(), s.hour(), s.party());
        if (ok) w.checkedSlots.add(s.key());
        ObjectNode out = Json.object("place_id", s.place().id(), "date", PoiWorld.DATES.get(s.day()), "time", PoiWorld.time(s.hour()),
                "party_size", s.party(), "available", ok);
        if (!ok) {
            out.put("reason", s.place().openAt(s.day(), s.hour()) ? "fully booked" : "closed at that time");
            ArrayNode later = out.putArray("later_times");
            w.laterTimes(s.place(), s.day(), s.hour(), s.party()).forEach(later::add);
        }
        return out;
    }

    private static ObjectNode reserve(PoiWorld w, Args a) {
        Slot s = slot(w, a);
        if (!w.checkedSlots.contains(s.key())) {
            throw ToolFailure.domain("check_availability must confirm this exact slot (place, date, time, party size) before booking");
        }
        if (!w.available(s.place(), s.day(), s.hour(), s.party())) throw ToolFailure.domain("that slot is no longer available");
        String guest = a.string("guest_name").strip();
        if (guest.isEmpty()) throw ToolFailure.domain("guest_name is empty");
        Reservation r = w.book(s.place(), PoiWorld.DATES.get(s.day()), PoiWorld.time(s.hour()), s.party(), guest);
        ObjectNode out = reservationJson(w, r);
        out.put("verification_code", r.code());
        return out;
    }

    private static ObjectNode reservationJson(PoiWorld w, Reservation r) {
        ObjectNode out = Json.object("reservation_id", r.id(), "place_id", r.placeId(), "place_name", w.place(r.placeId()).name(),
                "date", r.date(), "time", r.time(), "party_size", r.party(), "guest_name", r.guest(), "status", r.status());
        return out;
    }

    private static ObjectNode findReservations(PoiWorld w, Args a) {
        String guest = a.string("guest_name").strip();
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("reservations");
        for (Reservation r : w.reservations) {
            if (r.guest().equalsIgnoreCase(guest)) {
                ObjectNode o = reservationJson(w, r);
                o.put("city", w.place(r.placeId()).city());
                list.add(o);
            }
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode getReservation(PoiWorld w, Args a) {
        Reservation r = w.reservation(a.string("reservation_id").strip());
        if (r == null) throw ToolFailure.domain("no reservation with id '" + a.string("reservation_id") + "'");
        return reservationJson(w, r);
    }

    private static ObjectNode cancel(PoiWorld w, Args a) {
        Reservation r = w.reservation(a.string("reservation_id").strip());
        if (r == null) throw ToolFailure.domain("no reservation with id '" + a.string("reservation_id") + "'");
        if (!r.code().equalsIgnoreCase(a.string("verification_code").strip())) {
            throw ToolFailure.domain("verification code does not match reservation " + r.id());
        }
        if (r.status().equals("cancelled")) throw ToolFailure.domain("reservation " + r.id() + " is already cancelled");
        String cancellation = "X" + w.newCode().substring(1);
        w.replace(r.cancelled(cancellation));
        ObjectNode out = Json.object("reservation_id", r.id(), "status", "cancelled", "cancellation_code", cancellation);
        return out;
    }

    private static final List<String> PRAISE = List.of("Lovely staff", "Great value", "Cozy and calm", "Worth the wait",
            "Excellent service", "Would come back");
    private static final List<String> COMPLAINTS = List.of("A bit noisy", "Slow service", "Pricey for what it is",
            "Hard to find", "Crowded at weekends");

    private static ObjectNode reviews(PoiWorld w, Args a) {
        Place p = place(w, a.string("place_id"));
        ObjectNode out = Json.object();
        out.put("place_id", p.id());
        out.put("average_rating", p.rating());
        ArrayNode list = out.putArray("reviews");
        for (int i = 0; i < 3; i++) {
            int k = Math.floorMod(p.index() * 7 + i * 3, 11);
            int stars = (int) Math.max(1, Math.min(5, Math.round(p.rating() + (i - 1) * 0.6)));
            ObjectNode r = list.addObject();
            r.put("stars", stars);
            r.put("text", stars >= 4 ? PRAISE.get(k % PRAISE.size()) : COMPLAINTS.get(k % COMPLAINTS.size()));
        }
        return out;
    }

    private static ObjectNode districts(PoiWorld w, Args a) {
        String city = a.string("city");
        var c = w.cities().stream().filter(x -> x.name().equalsIgnoreCase(city)).findFirst()
                .orElseThrow(() -> ToolFailure.domain("unknown city '" + city + "'"));
        ObjectNode out = Json.object();
        out.put("city", c.name());
        ArrayNode list = out.putArray("districts");
        c.districts().forEach(list::add);
        return out;
    }
}
