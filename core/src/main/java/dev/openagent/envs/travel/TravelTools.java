package dev.openagent.envs.travel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.travel.TravelWorld.Airport;
import dev.openagent.envs.travel.TravelWorld.Connection;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.FlightBooking;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.envs.travel.TravelWorld.HotelBooking;
import dev.openagent.envs.kit.Lookup;
import dev.openagent.json.Json;
import dev.openagent.domain.Args;
import dev.openagent.domain.Param;
import dev.openagent.domain.Params;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The travel tools and what shifts may know about them. Overlaps on purpose: nonstop search and
 * connection search, a flight's details and its fare rules, hotel search (a "from" price per night)
 * and hotel rates (the real total). No second path leads to what tasks need (rates, fares and
 * schedules each have one source), so no tool declares one and tool.removal only removes tools a
 * task does not use.
 */
final class TravelTools {
    private TravelTools() {}

    static final Param FLIGHT_ID = Param.string("flight_id", "Flight id from a search, e.g. SK214-0504.");
    static final Param HOTEL_ID = Param.string("hotel_id", "Hotel id from a search, e.g. H-123.");
    static final Param DATE = Param.string("date", "Travel date as YYYY-MM-DD (2027-05-03 to 2027-05-09).");
    static final Param CHECK_IN = Param.string("check_in", "Check-in date as YYYY-MM-DD.");
    static final Param CHECK_OUT = Param.string("check_out", "Check-out date as YYYY-MM-DD (after check-in); or give nights instead.").optional();
    /** The length of a stay, so that "N nights from that day" needs no date arithmetic: the tool computes the check-out. */
    static final Param NIGHTS = Param.integer("nights", "Number of nights from check-in, instead of a check-out date.", 1, 7).optional();
    static final Param ORIGIN = Param.string("origin", "Three-letter code of the departure airport (see list_airports).");
    static final Param DESTINATION = Param.string("destination", "Three-letter code of the arrival airport.");
    static final Param PASSENGER = Param.string("passenger_name", "Traveller's full name.");

    /** The order rule book_hotel declares ({@code after}), as the domain rules state it. */
    static final String RATES_BEFORE_BOOKING = "Check a hotel's rates for the stay (get_hotel_rates) before booking it.";

    static final List<Tool<TravelWorld>> ALL = List.of(
            new Tool<>("list_airports",
                    "Airports with their three-letter codes and names; optionally only those of one city. Some cities have two airports.",
                    Params.of(Param.string("city", "City name.").optional()), TravelTools::listAirports).readOnly(),
            new Tool<>("search_flights",
                    "Nonstop flights between two airports on a date, by departure time: flight id and number, airline, "
                            + "departure and arrival times, fare and seats left.",
                    Params.of(ORIGIN, DESTINATION, DATE,
                            Param.integer("max_price", "Only fares up to this many dollars.", 1, 10000).optional()),
                    TravelTools::searchFlights).readOnly(),
            new Tool<>("search_connections",
                    "One-stop itineraries (two flights through the same airport) between two airports on a date, cheapest "
                            + "first: both flight ids, the connecting airport, layover minutes, total fare and arrival time.",
                    Params.of(ORIGIN, DESTINATION, DATE,
                            Param.integer("min_layover_minutes", "Shortest layover to allow (default and minimum 45).", 45, 300).optional()),
                    TravelTools::searchConnections).readOnly(),
            new Tool<>("get_flight",
                    "Details of one flight: airline, airports, times, duration, aircraft, fare and seats left.",
                    Params.of(FLIGHT_ID), TravelTools::getFlight).readOnly()
                    .recordOf("flight_id", "flight_number", "airline", "origin", "destination", "date", "departs", "arrives", "fare")
                    .recordFor("first_flight_id", "flight_id", "departs"),
            new Tool<>("get_fare_rules",
                    "Fare rules of one flight: whether the fare is refundable, the change fee and the checked-bag fee.",
                    Params.of(FLIGHT_ID), TravelTools::fareRules).readOnly(),
            new Tool<>("search_hotels",
                    "Hotels in a city, optionally by name, neighbourhood and minimum stars. With a check-in date and a check-out date or a number of nights, "
                            + "only hotels with a room every night, each with its lowest nightly rate for the stay.",
                    Params.of(Param.string("city", "City name."),
                            Param.string("name", "Hotel name or part of it.").optional(),
                            Param.oneOf("neighborhood", "Neighbourhood.", TravelNames.NEIGHBORHOODS).optional(),
                            Param.integer("min_stars", "Minimum star rating (1-5).", 1, 5).optional(),
                            CHECK_IN.optional(), CHECK_OUT, NIGHTS),
                    TravelTools::searchHotels).readOnly(),
            new Tool<>("get_hotel",
                    "One hotel's details: address, neighbourhood, stars, amenities and base rate.",
                    Params.of(HOTEL_ID), TravelTools::getHotel).readOnly()
                    .recordOf("hotel_id", "name", "city", "neighborhood", "stars"),
            new Tool<>("get_hotel_rates",
                    "Night-by-night availability and prices of one hotel for a stay (check-in and check-out, or check-in and nights), "
                            + "and the total price of the stay.",
                    Params.of(HOTEL_ID, CHECK_IN, CHECK_OUT, NIGHTS), TravelTools::hotelRates).readOnly(),
            new Tool<>("book_flight",
                    "Book a seat for a traveller on a flight, or on a one-stop itinerary by also giving the connecting flight "
                            + "(same date, leaving from the arrival airport at least 45 minutes later). Returns the record locator and the "
                            + "arrival time at the destination.",
                    Params.of(FLIGHT_ID, PASSENGER,
                            Param.string("connecting_flight_id", "Second flight of a one-stop itinerary.").optional()),
                    TravelTools::bookFlight).personName("passenger_name"),
            new Tool<>("book_hotel",
                    "Book a room for a stay (check-in and check-out, or check-in and nights; every night must be available). Returns "
                            + "the hotel confirmation number, the check-out date and the total price.",
                    Params.of(HOTEL_ID, CHECK_IN, CHECK_OUT, NIGHTS, Param.string("guest_name", "Name the room is booked under.")),
                    TravelTools::bookHotel).after("get_hotel_rates").personName("guest_name"),
            new Tool<>("list_bookings",
                    "Flight and hotel bookings under a traveller's name: references, what and when, price and status.",
                    Params.of(PASSENGER), TravelTools::listBookings).readOnly().personName("passenger_name"),
            new Tool<>("cancel_booking",
                    "Cancel a flight booking (by record locator) or a hotel booking (by confirmation number). Needs the "
                            + "traveller's last name. Returns a cancellation code.",
                    Params.of(Param.string("reference", "Record locator or hotel confirmation number."),
                            Param.string("last_name", "Traveller's last name.")),
                    TravelTools::cancelBooking));

    // ---------------------------------------------------------------- lookups shared with the task generator

    static Flight flight(TravelWorld w, String id) { return Lookup.byId(w.layout().flightById(), id, "flight"); }

    static Hotel hotel(TravelWorld w, String id) { return Lookup.byId(w.layout().hotelById(), id, "hotel"); }

    static Airport airport(TravelWorld w, String code) {
        Airport a = w.airport(code.strip().toUpperCase(Locale.ROOT));
        if (a == null) throw ToolFailure.domain("no airport with code '" + code + "'; use list_airports for codes");
        return a;
    }

    static int flightDay(String date) {
        int day = TravelWorld.day(date.strip());
        if (day < 0 || day >= TravelWorld.FLIGHT_DAYS) {
            throw ToolFailure.domain("date '" + date + "' is outside the schedule (" + TravelWorld.DATES.getFirst() + " to "
                    + TravelWorld.DATES.get(TravelWorld.FLIGHT_DAYS - 1) + ")");
        }
        return day;
    }

    /** The stay a call asks for: check-in with either a check-out date or a number of nights. */
    static int[] stay(Args a) {
        if (a.has("check_out") == a.has("nights")) throw ToolFailure.domain("give either check_out or nights with check_in");
        return a.has("check_out") ? stay(a.string("check_in"), a.string("check_out")) : stay(a.string("check_in"), a.integer("nights"));
    }

    /** The stay of a gold call's arguments (as {@link #stay(Args)} reads them). */
    static int[] stay(JsonNode args) {
        return args.has("nights") ? stay(args.path("check_in").asText(), args.path("nights").asInt())
                : stay(args.path("check_in").asText(), args.path("check_out").asText());
    }

    /** A stay of a number of nights: the check-out the tool computes for the caller. */
    static int[] stay(String checkIn, int nights) {
        int in = TravelWorld.day(checkIn.strip());
        if (in >= 0 && in + nights >= TravelWorld.DATES.size()) {
            throw ToolFailure.domain(nights + " nights from " + checkIn.strip() + " end after " + TravelWorld.DATES.getLast());
        }
        return stay(checkIn, in < 0 ? "" : TravelWorld.DATES.get(in + nights));
    }

    static int[] stay(String checkIn, String checkOut) {
        int in = TravelWorld.day(checkIn.strip());
        int out = TravelWorld.day(checkOut.strip());
        if (in < 0 || in >= TravelWorld.FLIGHT_DAYS) throw ToolFailure.domain("check-in '" + checkIn + "' is outside 2027-05-03 to 2027-05-09");
        if (out < 0) throw ToolFailure.domain("check-out '" + checkOut + "' is outside 2027-05-04 to 2027-05-10");
        if (out <= in) throw ToolFailure.domain("check-out must be after check-in");
        return new int[]{in, out};
    }

    static String city(TravelWorld w, String text) {
        String t = text.strip();
        for (String c : w.layout().cities()) if (c.equalsIgnoreCase(t)) return c;
        throw ToolFailure.domain("unknown city '" + text + "' (cities: " + String.join(", ", w.layout().cities()) + ")");
    }

    /** Hotels a search returns, ordered by name. */
    static List<Hotel> hotels(TravelWorld w, String city, String name, String neighborhood, int minStars, int[] stay) {
        return Lookup.named(w.layout().hotels(), name, Hotel::lowerName, h -> h.city().equals(city) && h.stars() >= minStars
                && (neighborhood == null || h.neighborhood().equals(neighborhood)) && (stay == null || w.available(h, stay[0], stay[1])));
    }

    // ---------------------------------------------------------------- behaviours

    private static ObjectNode listAirports(TravelWorld w, Args a) {
        String city = a.has("city") ? city(w, a.string("city")) : null;
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("airports");
        for (Airport ap : w.layout().airports()) {
            if (city != null && !ap.city().equals(city)) continue;
            ObjectNode o = Json.object("code", ap.code(), "name", ap.name(), "city", ap.city());
            list.add(o);
        }
        return out;
    }

    private static ObjectNode flightJson(TravelWorld w, Flight f) {
        return Json.object("flight_id", f.id(), "flight_number", f.number(), "airline", f.airline(), "origin", f.origin(),
                "destination", f.destination(), "date", TravelWorld.DATES.get(f.day()), "departs", TravelWorld.CLOCK[f.dep()],
                "arrives", TravelWorld.CLOCK[f.arr()], "fare", f.price(), "seats_left", w.seatsLeft(f));
    }

    private static ObjectNode searchFlights(TravelWorld w, Args a) {
        Airport from = airport(w, a.string("origin"));
        Airport to = airport(w, a.string("destination"));
        int day = flightDay(a.string("date"));
        int maxPrice = a.integer("max_price", Integer.MAX_VALUE);
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("flights");
        for (Flight f : w.nonstop(from.code(), to.code(), day)) if (f.price() <= maxPrice) list.add(flightJson(w, f));
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode searchConnections(TravelWorld w, Args a) {
        Airport from = airport(w, a.string("origin"));
        Airport to = airport(w, a.string("destination"));
        int day = flightDay(a.string("date"));
        int min = a.integer("min_layover_minutes", TravelWorld.MIN_CONNECTION);
        List<Connection> found = w.connections(from.code(), to.code(), day, min);
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("itineraries");
        for (int i = 0; i < Math.min(8, found.size()); i++) {
            Connection c = found.get(i);
            ObjectNode o = Json.object("first_flight_id", c.first().id(), "second_flight_id", c.second().id(),
                    "via", c.first().destination(), "departs", TravelWorld.CLOCK[c.first().dep()],
                    "arrives", TravelWorld.CLOCK[c.second().arr()], "layover_minutes", c.layover(), "total_fare", c.price(),
                    "seats_left", Math.min(w.seatsLeft(c.first()), w.seatsLeft(c.second())));
            list.add(o);
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode getFlight(TravelWorld w, Args a) {
        Flight f = flight(w, a.string("flight_id"));
        ObjectNode out = flightJson(w, f);
        out.put("duration_minutes", f.minutes());
        out.put("aircraft", f.aircraft());
        return out;
    }

    private static ObjectNode fareRules(TravelWorld w, Args a) {
        Flight f = flight(w, a.string("flight_id"));
        ObjectNode out = Json.object("flight_id", f.id(), "fare", f.price(), "refundable", f.refundable(), "change_fee", f.changeFee(),
                "checked_bag_fee", f.bagFee(), "carry_on_included", true);
        return out;
    }

    private static ObjectNode searchHotels(TravelWorld w, Args a) {
        String city = city(w, a.string("city"));
        if (a.has("check_in") != (a.has("check_out") || a.has("nights"))) {
            throw ToolFailure.domain("give check_in with check_out or nights, or none of them");
        }
        int[] stay = a.has("check_in") ? stay(a) : null;
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("hotels");
        for (Hotel h : hotels(w, city, a.string("name", null), a.string("neighborhood", null), a.integer("min_stars", 1), stay)) {
            ObjectNode o = Json.object("hotel_id", h.id(), "name", h.name(), "city", h.city(), "neighborhood", h.neighborhood(),
                    "stars", h.stars());
            list.add(o);
            if (stay != null) {
                int from = Integer.MAX_VALUE;
                for (int n = stay[0]; n < stay[1]; n++) from = Math.min(from, w.nightlyPrice(h, n));
                o.put("nightly_from", from);
            }
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode getHotel(TravelWorld w, Args a) {
        Hotel h = hotel(w, a.string("hotel_id"));
        ObjectNode out = Json.object("hotel_id", h.id(), "name", h.name(), "city", h.city(), "neighborhood", h.neighborhood(),
                "address", h.address(), "stars", h.stars(), "base_rate", h.basePrice());
        ArrayNode am = out.putArray("amenities");
        h.amenities().forEach(am::add);
        return out;
    }

    private static ObjectNode hotelRates(TravelWorld w, Args a) {
        Hotel h = hotel(w, a.string("hotel_id"));
        int[] stay = stay(a);
        ObjectNode out = Json.object();
        out.put("hotel_id", h.id());
        ArrayNode nights = out.putArray("nights");
        boolean all = true;
        for (int n = stay[0]; n < stay[1]; n++) {
            ObjectNode o = nights.addObject();
            o.put("date", TravelWorld.DATES.get(n));
            boolean free = w.roomFree(h, n);
            o.put("available", free);
            if (free) o.put("price", w.nightlyPrice(h, n));
            all &= free;
        }
        out.put("available", all);
        if (all) out.put("total_price", w.stayPrice(h, stay[0], stay[1]));
        return out;
    }

    private static ObjectNode bookFlight(TravelWorld w, Args a) {
        Flight f = flight(w, a.string("flight_id"));
        String passenger = a.string("passenger_name").strip();
        if (passenger.isEmpty()) throw ToolFailure.domain("passenger_name is empty");
        List<Flight> legs = new ArrayList<>(2);
        legs.add(f);
        if (a.has("connecting_flight_id")) {
            Flight g = flight(w, a.string("connecting_flight_id"));
            if (g.day() != f.day()) throw ToolFailure.domain("the connecting flight must be on the same date");
            if (!g.origin().equals(f.destination())) throw ToolFailure.domain("the connecting flight must leave from " + f.destination());
            if (g.dep() - f.arr() < TravelWorld.MIN_CONNECTION) {
                throw ToolFailure.domain("connection too short: at least " + TravelWorld.MIN_CONNECTION + " minutes are needed");
            }
            legs.add(g);
        }
        for (Flight leg : legs) if (w.seatsLeft(leg) <= 0) throw ToolFailure.domain("flight " + leg.number() + " is sold out");
        FlightBooking b = w.bookFlights(passenger, legs, false);
        ObjectNode out = Json.object();
        out.put("record_locator", b.locator());
        out.put("passenger_name", passenger);
        ArrayNode ids = out.putArray("flights");
        for (Flight leg : legs) ids.add(leg.number() + " " + leg.origin() + "-" + leg.destination() + " " + TravelWorld.CLOCK[leg.dep()]);
        out.put("date", TravelWorld.DATES.get(f.day()));
        out.put("arrives", TravelWorld.CLOCK[legs.getLast().arr()]);   // at the destination, after the last leg
        out.put("total_fare", b.price());
        out.put("status", "confirmed");
        return out;
    }

    private static ObjectNode bookHotel(TravelWorld w, Args a) {
        Hotel h = hotel(w, a.string("hotel_id"));
        int[] stay = stay(a);
        String guest = a.string("guest_name").strip();
        if (guest.isEmpty()) throw ToolFailure.domain("guest_name is empty");
        if (!w.available(h, stay[0], stay[1])) throw ToolFailure.domain(h.name() + " has no room for every night of that stay");
        HotelBooking b = w.bookHotel(h, stay[0], stay[1], guest, false);
        ObjectNode out = Json.object("confirmation_number", b.confirmation(), "hotel_name", h.name(), "city", h.city(),
                "check_in", TravelWorld.DATES.get(stay[0]), "check_out", TravelWorld.DATES.get(stay[1]), "guest_name", guest,
                "total_price", b.total());
        return out;
    }

    private static ObjectNode listBookings(TravelWorld w, Args a) {
        String name = a.string("passenger_name").strip();
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("bookings");
        for (FlightBooking b : w.flightBookings) {
            if (!b.passenger().equalsIgnoreCase(name)) continue;
            ObjectNode o = list.addObject();
            o.put("reference", b.locator());
            o.put("type", "flight");
            Flight first = w.flight(b.flightIds().getFirst());
            Flight last = w.flight(b.flightIds().getLast());
            o.put("route", first.origin() + "-" + last.destination());
            o.put("date", TravelWorld.DATES.get(first.day()));
            o.put("price", b.price());
            o.put("status", b.status());
        }
        for (HotelBooking b : w.hotelBookings) {
            if (!b.passenger().equalsIgnoreCase(name)) continue;
            Hotel h = w.hotel(b.hotelId());
            list.add(Json.object("reference", b.confirmation(), "type", "hotel", "hotel_name", h.name(), "city", h.city(),
                    "check_in", TravelWorld.DATES.get(b.checkIn()), "check_out", TravelWorld.DATES.get(b.checkOut()), "price", b.total(),
                    "status", b.status()));
        }
        out.put("count", list.size());
        return out;
    }

    private static ObjectNode cancelBooking(TravelWorld w, Args a) {
        String reference = a.string("reference").strip().toUpperCase(Locale.ROOT);
        String lastName = a.string("last_name").strip();
        String passenger = null;
        String status = null;
        for (FlightBooking b : w.flightBookings) {
            if (b.locator().equals(reference)) {
                passenger = b.passenger();
                status = b.status();
            }
        }
        for (HotelBooking b : w.hotelBookings) {
            if (b.confirmation().equals(reference)) {
                passenger = b.passenger();
                status = b.status();
            }
        }
        if (passenger == null) throw ToolFailure.domain("no booking with reference '" + a.string("reference") + "'");
        if (lastName.isEmpty() || !passenger.toLowerCase(Locale.ROOT).endsWith(" " + lastName.toLowerCase(Locale.ROOT))) {
            throw ToolFailure.domain("last name does not match booking " + reference);
        }
        if (status.equals("cancelled")) throw ToolFailure.domain("booking " + reference + " is already cancelled");
        String code = w.cancel(reference);
        ObjectNode out = Json.object("reference", reference, "status", "cancelled", "cancellation_code", code);
        return out;
    }
}
