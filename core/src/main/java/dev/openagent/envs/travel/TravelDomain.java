package dev.openagent.envs.travel;

import dev.openagent.envs.travel.TravelWorld.FlightBooking;
import dev.openagent.envs.travel.TravelWorld.HotelBooking;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Surface;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Travel planning: airports, a week of scheduled nonstop flights, one-stop connections with layover
 * minimums, hotels with nightly rates and availability; flight and hotel bookings under
 * constraints (fare rules, budgets, star ratings, arrival times) and cancellations.
 */
public final class TravelDomain {
    private TravelDomain() {}

    private static final String RULES = """
                - Flights operate from 2027-05-03 to 2027-05-09; times are local 24-hour clock, fares whole dollars per person.
                - Flight searches take three-letter airport codes; some cities have two airports, and a connection must
                  change planes at one airport with a layover of at least 45 minutes.
                - A hotel stay is bookable only when every night has a room; the total is the sum of the nightly rates.
                  %s
                - Cancelling a booking needs the traveller's last name.
                - Book exactly what the traveller asked for, one booking per request unless told otherwise.""".formatted(TravelTools.RATES_BEFORE_BOOKING);

    public static final Domain<TravelWorld> DOMAIN = new Domain<>("travel",
            "Travel planning: flights, one-stop connections with layover minimums, hotels and itineraries under constraints.",
            RULES, new Surface.FunctionCalls<>(TravelTools.ALL),
            TravelWorld::of, TravelTasks.KINDS.all(), TravelTasks::generate, TravelDomain::check, TravelVocabulary.VOCABULARY);

    /** The world state after the answer passed its check: exactly the requested change, nothing else. */
    private static String check(Task task, TravelWorld world, String answer) {
        Map<String, String> expect = task.expect();
        List<FlightBooking> flights = new ArrayList<>();
        for (FlightBooking b : world.flightBookings) if (!b.preexisting()) flights.add(b);
        List<HotelBooking> hotels = new ArrayList<>();
        for (HotelBooking b : world.hotelBookings) if (!b.preexisting()) hotels.add(b);
        if (expect.containsKey("flight_ids")) {
            if (flights.size() != 1) return flights.isEmpty() ? "no flight was booked" : flights.size() + " flight bookings were made instead of one";
            FlightBooking b = flights.getFirst();
            if (!String.join(",", b.flightIds()).equals(expect.get("flight_ids"))) return "booked the wrong flight(s) " + b.flightIds();
            if (!b.passenger().equalsIgnoreCase(expect.get("flight_passenger"))) return "booked under the wrong name (" + b.passenger() + ")";
            if (!b.status().equals("confirmed")) return "the flight booking was cancelled again";
            if (!Checks.mentions(answer, b.locator())) return "answer lacks the record locator";
        } else if (!flights.isEmpty()) {
            return "a flight was booked, which the request did not ask for";
        }
        if (expect.containsKey("hotel_id")) {
            if (hotels.size() != 1) return hotels.isEmpty() ? "no hotel was booked" : hotels.size() + " hotel bookings were made instead of one";
            HotelBooking b = hotels.getFirst();
            if (!b.hotelId().equals(expect.get("hotel_id"))) return "booked the wrong hotel (" + world.hotel(b.hotelId()).name() + ")";
            if (!TravelWorld.DATES.get(b.checkIn()).equals(expect.get("hotel_check_in"))
                    || !TravelWorld.DATES.get(b.checkOut()).equals(expect.get("hotel_check_out"))) return "booked the wrong dates";
            if (!b.passenger().equalsIgnoreCase(expect.get("hotel_guest"))) return "booked the hotel under the wrong name";
            if (!b.status().equals("confirmed")) return "the hotel booking was cancelled again";
            if (!Checks.mentions(answer, b.confirmation())) return "answer lacks the hotel confirmation number";
        } else if (!hotels.isEmpty()) {
            return "a hotel was booked, which the request did not ask for";
        }
        String cancel = expect.get("cancel");
        if (cancel != null) {
            if (world.cancelled.size() != 1 || !world.cancelled.containsKey(cancel)) {
                return world.cancelled.isEmpty() ? "nothing was cancelled" : "cancelled the wrong booking(s) " + world.cancelled.keySet();
            }
            if (!Checks.mentions(answer, world.cancelled.get(cancel))) return "answer lacks the cancellation code";
        } else if (!world.cancelled.isEmpty()) {
            return "a booking was cancelled, which the request did not ask for";
        }
        return null;
    }
}
