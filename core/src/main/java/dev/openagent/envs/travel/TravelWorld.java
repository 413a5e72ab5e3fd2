package dev.openagent.envs.travel;

import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.EpisodeWorld;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The travel world of one episode: a cached, immutable {@link Layout} of cities, airports, a week of
 * scheduled flights and hotels with nightly rates; plus this episode's flight and hotel bookings,
 * cancellations and seats sold.
 */
public final class TravelWorld extends EpisodeWorld<TravelWorld.Layout> {
    /** The travel week: DATES.get(i) is day i (Monday 2027-05-03 to Sunday 2027-05-09). */
    static final List<String> DATES = List.of("2027-05-03", "2027-05-04", "2027-05-05", "2027-05-06", "2027-05-07",
            "2027-05-08", "2027-05-09", "2027-05-10");
    /** Days flights operate on (a hotel may be left on the morning of the 8th date). */
    static final int FLIGHT_DAYS = 7;
    /** The tool's minimum connection time; requests may ask for more. */
    static final int MIN_CONNECTION = 45;
    static final int MAX_LAYOVER = 300;
    static final String[] CLOCK = new String[24 * 60];

    static {
        for (int m = 0; m < CLOCK.length; m++) CLOCK[m] = String.format(Locale.ROOT, "%02d:%02d", m / 60, m % 60);
    }

    public record Airport(String code, String name, String city) {}

    /** A flight on one day; times are minutes after midnight, prices whole dollars. */
    public record Flight(String id, String number, String airline, String origin, String destination, int day, int dep, int arr,
                         int price, int seats, boolean refundable, int changeFee, int bagFee, String aircraft, int index) {
        int minutes() { return arr - dep; }
    }

    public record Hotel(String id, String name, String city, String neighborhood, int stars, int basePrice, List<String> amenities,
                        String address, int index, String lowerName) {}

    /** Two airports of different cities on a day, and the nonstop flights between them (by departure; possibly none). */
    public record Route(Airport from, Airport to, int day, List<Flight> flights) {
        String date() { return DATES.get(day); }
    }

    /** The immutable part of a world; {@code routes} lists every airport pair and day (the task generator walks them). */
    public record Layout(long seed, Split split, List<String> cities, List<Airport> airports, List<Flight> flights,
                         Map<String, List<Flight>> departures, Map<String, Flight> flightById, List<Hotel> hotels,
                         Map<String, Hotel> hotelById, List<Route> routes) {}

    public record FlightBooking(String locator, String passenger, List<String> flightIds, int price, String status,
                                boolean preexisting) {}

    public record HotelBooking(String confirmation, String passenger, String hotelId, int checkIn, int checkOut, int total,
                               String status, boolean preexisting) {}

    /** Layouts cached per split (tests build worlds on a chosen one). */
    static final Layouts<Layout> LAYOUTS = new Layouts<>(128, 0x7EA7E1L, TravelWorld::generate);


    final List<FlightBooking> flightBookings = new ArrayList<>();
    final List<HotelBooking> hotelBookings = new ArrayList<>();
    /** Booking references cancelled in this episode, with their cancellation codes. */
    final Map<String, String> cancelled = new HashMap<>();
    private final Map<String, Integer> seatsSold = new HashMap<>();

    TravelWorld(Layout map, long episodeSeed) {
        super(map, episodeSeed);
    }

    public static TravelWorld of(Split split, long episodeSeed) {
        return new TravelWorld(LAYOUTS.of(split, episodeSeed), episodeSeed);
    }


    public List<FlightBooking> flightBookings() { return List.copyOf(flightBookings); }

    public List<HotelBooking> hotelBookings() { return List.copyOf(hotelBookings); }

    Flight flight(String id) { return map.flightById().get(id); }

    Hotel hotel(String id) { return map.hotelById().get(id); }

    Airport airport(String code) {
        for (Airport a : map.airports()) if (a.code().equals(code)) return a;
        return null;
    }

    List<Airport> airports(String city) {
        List<Airport> out = new ArrayList<>(2);
        for (Airport a : map.airports()) if (a.city().equals(city)) out.add(a);
        return out;
    }

    // ---------------------------------------------------------------- flights

    int seatsLeft(Flight f) { return f.seats() - seatsSold.getOrDefault(f.id(), 0); }

    /** Nonstop flights from origin to destination on a day, by departure time. */
    List<Flight> nonstop(String origin, String destination, int day) {
        List<Flight> out = new ArrayList<>();
        for (Flight f : map.departures().getOrDefault(origin + "|" + day, List.of())) {
            if (f.destination().equals(destination)) out.add(f);
        }
        return out;
    }

    /** A one-stop connection: two flights through the same airport. */
    record Connection(Flight first, Flight second) {
        int layover() { return second.dep() - first.arr(); }

        int price() { return first.price() + second.price(); }
    }

    private static final Comparator<Connection> CONNECTION_ORDER =
            Comparator.comparingInt(Connection::price).thenComparingInt(c -> c.second().arr()).thenComparing(c -> c.first().id());

    /** One-stop connections with at least {@code minLayover} minutes (and at most five hours), cheapest first. */
    List<Connection> connections(String origin, String destination, int day, int minLayover) {
        List<Connection> out = new ArrayList<>();
        for (Flight a : map.departures().getOrDefault(origin + "|" + day, List.of())) {
            if (a.destination().equals(destination)) continue;
            for (Flight b : map.departures().getOrDefault(a.destination() + "|" + day, List.of())) {
                if (!b.destination().equals(destination)) continue;
                int layover = b.dep() - a.arr();
                if (layover >= minLayover && layover <= MAX_LAYOVER) out.add(new Connection(a, b));
            }
        }
        out.sort(CONNECTION_ORDER);
        return out;
    }

    FlightBooking bookFlights(String passenger, List<Flight> flights, boolean preexisting) {
        int price = 0;
        List<String> ids = new ArrayList<>(flights.size());
        for (Flight f : flights) {
            price += f.price();
            ids.add(f.id());
            seatsSold.merge(f.id(), 1, Integer::sum);
        }
        FlightBooking b = new FlightBooking(Codes.next(codes, "PNR", 6), passenger, List.copyOf(ids), price, "confirmed", preexisting);
        flightBookings.add(b);
        return b;
    }

    // ---------------------------------------------------------------- hotels

    /** Whether the hotel has a room on the night starting at {@code day}: a fixed function of the layout. */
    boolean roomFree(Hotel h, int night) {
        long x = Seeds.mix(map.seed() ^ 0x407E1, h.index() * 64L + night);
        return (x >>> 40) % 100 >= 16;
    }

    int nightlyPrice(Hotel h, int night) {
        long x = Seeds.mix(map.seed() ^ 0x9A1CE, h.index() * 64L + night);
        int variation = (int) ((x >>> 40) % 21) - 10;                      // -10% .. +10%
        int weekend = night == 4 || night == 5 ? 25 : 0;                   // Friday and Saturday nights
        return h.basePrice() * (100 + variation + weekend) / 100;
    }

    boolean available(Hotel h, int checkIn, int checkOut) {
        for (int n = checkIn; n < checkOut; n++) if (!roomFree(h, n)) return false;
        return true;
    }

    int stayPrice(Hotel h, int checkIn, int checkOut) {
        int total = 0;
        for (int n = checkIn; n < checkOut; n++) total += nightlyPrice(h, n);
        return total;
    }

    HotelBooking bookHotel(Hotel h, int checkIn, int checkOut, String guest, boolean preexisting) {
        HotelBooking b = new HotelBooking(Codes.next(codes, "HTL", 6), guest, h.id(), checkIn, checkOut, stayPrice(h, checkIn, checkOut),
                "confirmed", preexisting);
        hotelBookings.add(b);
        return b;
    }

    String cancel(String reference) {
        String code = Codes.next(codes, "CXL", 6);
        cancelled.put(reference, code);
        for (int i = 0; i < flightBookings.size(); i++) {
            FlightBooking b = flightBookings.get(i);
            if (b.locator().equals(reference)) {
                flightBookings.set(i, new FlightBooking(b.locator(), b.passenger(), b.flightIds(), b.price(), "cancelled", b.preexisting()));
                for (String id : b.flightIds()) seatsSold.merge(id, -1, Integer::sum);
            }
        }
        for (int i = 0; i < hotelBookings.size(); i++) {
            HotelBooking b = hotelBookings.get(i);
            if (b.confirmation().equals(reference)) {
                hotelBookings.set(i, new HotelBooking(b.confirmation(), b.passenger(), b.hotelId(), b.checkIn(), b.checkOut(), b.total(),
                        "cancelled", b.preexisting()));
            }
        }
        return code;
    }

    static int day(String date) { return DATES.indexOf(date); }

    /** "14:05" -> 845, or -1. */
    static int minutes(String time) {
        if (time.length() != 5 || time.charAt(2) != ':') return -1;
        int h = digits(time, 0);
        int m = digits(time, 3);
        return h < 0 || m < 0 || h > 23 || m > 59 ? -1 : h * 60 + m;
    }

    private static int digits(String s, int at) {
        char a = s.charAt(at);
        char b = s.charAt(at + 1);
        if (a < '0' || a > '9' || b < '0' || b > '9') return -1;
        return (a - '0') * 10 + (b - '0');
    }

    // ---------------------------------------------------------------- generation

    static Layout generate(Split split, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<String> cities = Names.distinct(Names.half(TravelNames.CITIES, split), 6, rnd);
        List<String[]> airlines = Names.half(TravelNames.AIRLINES, split);

        // Airports: every city has an international airport; two cities also have a second, smaller one.
        List<Airport> airports = new ArrayList<>();
        Set<String> codes = new HashSet<>();
        Set<Integer> twoAirports = new HashSet<>();
        while (twoAirports.size() < 2) twoAirports.add(rnd.nextInt(cities.size()));
        for (int c = 0; c < cities.size(); c++) {
            String city = cities.get(c);
            airports.add(new Airport(code(city, rnd, codes), city + " International", city));
            if (twoAirports.contains(c)) {
                airports.add(new Airport(code(city, rnd, codes), city + (rnd.nextBoolean() ? " Downtown" : " Regional"), city));
            }
        }

        // Routes: two hub cities connect to everything; other city pairs only sometimes.
        List<Flight> flights = new ArrayList<>();
        Set<String> numbers = new HashSet<>();
        for (int a = 0; a < cities.size(); a++) {
            for (int b = a + 1; b < cities.size(); b++) {
                boolean hub = a < 2 || b < 2;
                if (!hub && rnd.nextDouble() < 0.55) continue;
                int minutes = 55 + rnd.nextInt(34) * 5;
                for (int direction = 0; direction < 2; direction++) {
                    String from = direction == 0 ? cities.get(a) : cities.get(b);
                    String to = direction == 0 ? cities.get(b) : cities.get(a);
                    int services = 1 + rnd.nextInt(3);
                    for (int s = 0; s < services; s++) {
                        String[] airline = Names.any(airlines, rnd);
                        String number;
                        do number = airline[1] + " " + (100 + rnd.nextInt(900)); while (!numbers.add(number));
                        Airport origin = pickAirport(airports, from, rnd);
                        Airport destination = pickAirport(airports, to, rnd);
                        int dep = (6 * 60 + rnd.nextInt(14 * 12) * 5);
                        int basePrice = 60 + minutes / 2 + rnd.nextInt(120);
                        boolean refundable = rnd.nextDouble() < 0.35;
                        String aircraft = Names.any(TravelNames.AIRCRAFT, rnd);
                        for (int day = 0; day < FLIGHT_DAYS; day++) {
                            if (rnd.nextDouble() < 0.12) continue;                          // does not fly that day
                            int depDay = Math.min(22 * 60, dep + (rnd.nextInt(5) - 2) * 5);
                            int price = basePrice * (80 + rnd.nextInt(80)) / 100 + (refundable ? 40 : 0);
                            int seats = rnd.nextDouble() < 0.1 ? 0 : 1 + rnd.nextInt(9);
                            String id = number.replace(" ", "") + "-" + DATES.get(day).substring(5).replace("-", "");
                            flights.add(new Flight(id, number, airline[0], origin.code(), destination.code(), day, depDay, depDay + minutes,
                                    price, seats, refundable, refundable ? 0 : 50 + rnd.nextInt(4) * 25, rnd.nextBoolean() ? 0 : 35,
                                    aircraft, flights.size()));
                        }
                    }
                }
            }
        }
        flights.sort(Comparator.comparingInt(Flight::day).thenComparingInt(Flight::dep).thenComparing(Flight::id));
        List<Flight> indexed = new ArrayList<>(flights.size());
        Map<String, List<Flight>> departures = new HashMap<>();
        Map<String, Flight> flightById = new HashMap<>();
        for (Flight f : flights) {
            Flight g = new Flight(f.id(), f.number(), f.airline(), f.origin(), f.destination(), f.day(), f.dep(), f.arr(), f.price(),
                    f.seats(), f.refundable(), f.changeFee(), f.bagFee(), f.aircraft(), indexed.size());
            indexed.add(g);
            departures.computeIfAbsent(g.origin() + "|" + g.day(), k -> new ArrayList<>()).add(g);
            flightById.put(g.id(), g);
        }
        departures.replaceAll((k, v) -> List.copyOf(v));

        // Hotels: six per city; hotel chains reuse names across cities, and stems repeat within a city.
        List<String> stems = Names.distinct(Names.half(TravelNames.HOTEL_STEMS, split), 7, rnd);
        List<Hotel> hotels = new ArrayList<>();
        Set<String> hotelIds = new HashSet<>();
        for (String city : cities) {
            Set<String> here = new HashSet<>();
            for (int i = 0; i < 6; i++) {
                String name;
                if (!hotels.isEmpty() && rnd.nextDouble() < 0.3) {
                    name = hotels.get(rnd.nextInt(hotels.size())).name();
                    if (here.contains(name)) name = null;
                } else {
                    name = null;
                }
                while (name == null || here.contains(name)) name = Names.any(stems, rnd) + " " + Names.any(TravelNames.HOTEL_TYPES, rnd);
                here.add(name);
                String id;
                do id = "H-" + (100 + rnd.nextInt(900)); while (!hotelIds.add(id));
                int stars = 2 + rnd.nextInt(4);
                int base = 50 + stars * 35 + rnd.nextInt(60);
                List<String> amenities = new ArrayList<>();
                for (String a : TravelNames.AMENITIES) if (rnd.nextDouble() < 0.2 + stars * 0.1) amenities.add(a);
                String address = (1 + rnd.nextInt(300)) + " " + Names.any(TravelNames.HOTEL_STEMS, rnd) + " Avenue";
                hotels.add(new Hotel(id, name, city, Names.any(TravelNames.NEIGHBORHOODS, rnd), stars, base, List.copyOf(amenities), address,
                        hotels.size(), name.toLowerCase(Locale.ROOT)));
            }
        }
        hotels.sort(Comparator.comparing(Hotel::name).thenComparing(Hotel::id));   // the order searches return
        Map<String, Hotel> hotelById = new HashMap<>();
        hotels.forEach(h -> hotelById.put(h.id(), h));
        List<Route> routes = new ArrayList<>();
        for (Airport from : airports) {
            for (Airport to : airports) {
                if (from.city().equals(to.city())) continue;
                for (int day = 0; day < FLIGHT_DAYS; day++) {
                    List<Flight> nonstop = new ArrayList<>();
                    for (Flight f : departures.getOrDefault(from.code() + "|" + day, List.of())) if (f.destination().equals(to.code())) nonstop.add(f);
                    routes.add(new Route(from, to, day, List.copyOf(nonstop)));
                }
            }
        }
        return new Layout(seed, split, List.copyOf(cities), List.copyOf(airports), List.copyOf(indexed), Map.copyOf(departures),
                Map.copyOf(flightById), List.copyOf(hotels), Map.copyOf(hotelById), List.copyOf(routes));
    }

    private static Airport pickAirport(List<Airport> airports, String city, SplittableRandom rnd) {
        List<Airport> here = new ArrayList<>(2);
        for (Airport a : airports) if (a.city().equals(city)) here.add(a);
        return here.size() == 1 || rnd.nextDouble() < 0.6 ? here.getFirst() : here.get(1);
    }

    private static String code(String city, SplittableRandom rnd, Set<String> used) {
        String letters = city.replace(" ", "").toUpperCase(Locale.ROOT);
        String code = letters.substring(0, 3);
        while (!used.add(code)) {
            code = letters.substring(0, 2) + (char) ('A' + rnd.nextInt(26));
        }
        return code;
    }
}
