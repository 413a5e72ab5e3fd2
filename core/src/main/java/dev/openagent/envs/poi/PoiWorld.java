package dev.openagent.envs.poi;

import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.EpisodeWorld;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The POI world of one episode: an immutable {@link Map} of cities and places (cached, shared by
 * episodes) plus this episode's mutable reservations.
 */
public final class PoiWorld extends EpisodeWorld<PoiWorld.Layout> {
    /** Worlds per split: enough variety that names and layouts are not memorised, few enough to cache. */
    static final int WORLDS_PER_SPLIT = 512;
    static final List<String> DAYS = List.of("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday");
    /** The bookable week: DATES.get(i) falls on DAYS.get(i). */
    static final List<String> DATES = List.of("2026-12-07", "2026-12-08", "2026-12-09", "2026-12-10", "2026-12-11",
            "2026-12-12", "2026-12-13");
    static final List<String> CUISINES = List.of("italian", "japanese", "mexican", "indian", "french", "thai", "greek", "lebanese");

    public enum Category {
        RESTAURANT("restaurant", true, 11, 22, List.of("Bistro", "Trattoria", "Kitchen", "Grill", "Brasserie")),
        CAFE("cafe", true, 7, 18, List.of("Cafe", "Coffee House", "Espresso")),
        BAR("bar", true, 16, 23, List.of("Tavern", "Bar", "Lounge")),
        BAKERY("bakery", false, 6, 15, List.of("Bakery", "Patisserie")),
        MUSEUM("museum", false, 9, 17, List.of("Museum", "Gallery")),
        PARK("park", false, 6, 21, List.of("Park", "Gardens")),
        HOTEL("hotel", false, 0, 24, List.of("Hotel", "Inn")),
        CINEMA("cinema", false, 12, 23, List.of("Cinema", "Picturehouse"));

        public final String id;
        public final boolean reservable;
        final int opens;
        final int closes;
        final List<String> suffixes;

        Category(String id, boolean reservable, int opens, int closes, List<String> suffixes) {
            this.id = id;
            this.reservable = reservable;
            this.opens = opens;
            this.closes = closes;
            this.suffixes = suffixes;
        }

        static final List<String> IDS = java.util.Arrays.stream(values()).map(c -> c.id).toList();

        static Category of(String id) {
            for (Category c : values()) if (c.id.equals(id)) return c;
            throw new IllegalArgumentException(id);
        }
    }

    /** Counts per category in each city. */
    private static final Map<Category, Integer> PER_CITY = perCity();

    private static Map<Category, Integer> perCity() {
        Map<Category, Integer> m = new LinkedHashMap<>();
        m.put(Category.RESTAURANT, 12);
        m.put(Category.CAFE, 5);
        m.put(Category.BAR, 4);
        m.put(Category.BAKERY, 3);
        m.put(Category.MUSEUM, 4);
        m.put(Category.PARK, 3);
        m.put(Category.HOTEL, 3);
        m.put(Category.CINEMA, 2);
        return java.util.Collections.unmodifiableMap(m);
    }

    public record City(String name, List<String> districts) {}

    /**
     * A place. {@code hours[d]} is {opens, closes} in whole hours for day d (Monday = 0), or null when closed.
     */
    public record Place(String id, String name, Category category, String cuisine, String city, String district,
                        double rating, int price, double x, double y, String phone, String address, int capacity,
                        int[][] hours, int index, String lowerName) {
        boolean openAt(int day, int hour) {
            int[] h = hours[day];
            return h != null && hour >= h[0] && hour < h[1];
        }
    }

    public record Reservation(String id, String placeId, String date, String time, int party, String guest,
                              String code, String status, boolean preexisting, String cancellationCode) {
        Reservation cancelled(String cancellation) {
            return new Reservation(id, placeId, date, time, party, guest, code, "cancelled", preexisting, cancellation);
        }
    }

    /** The immutable part of a world. */
    /**
     * The immutable part of a world: places in name order, indexed by id and by lower-case city;
     * {@code twins[i]} is the index of a same-named place in another city, or -1;
     * {@code uniqueName[i]} whether searching place i's city for its full name finds only place i.
     */
    public record Layout(long seed, Split split, List<City> cities, List<Place> places, Map<String, Place> byId,
                         Map<String, List<Place>> byCity, int[] twins, boolean[] uniqueName) {}

    /** Layouts keep the seeds poi had before the kit, so its worlds stay the same. */
    private static final Layouts<Layout> LAYOUTS = new Layouts<>(WORLDS_PER_SPLIT, 17,
            (split, index) -> Seeds.mix(index, split == Split.TRAIN ? 0x7A11 : 0x7E57), PoiWorld::generate);

    final List<Reservation> reservations = new ArrayList<>();
    /** Slots checked for availability in this episode (place|date|time|party): booking requires one. */
    final Set<String> checkedSlots = new HashSet<>();

    private PoiWorld(Layout map, long episodeSeed) {
        super(map, episodeSeed);
    }

    /** The world of an episode: a cached map chosen by the seed, with empty mutable state. */
    public static PoiWorld of(Split split, long episodeSeed) {
        return new PoiWorld(LAYOUTS.of(split, episodeSeed), episodeSeed);
    }

    public List<City> cities() { return map.cities(); }

    public List<Place> places() { return map.places(); }

    public Place place(String id) { return map.byId().get(id); }

    /** Places of a city (any case), or null for an unknown city. */
    public List<Place> placesIn(String city) { return map.byCity().get(city.toLowerCase(Locale.ROOT)); }

    /** Whether a search of the place's city for its full name finds it alone. */
    public boolean uniqueName(Place p) { return map.uniqueName()[p.index()]; }

    /** A same-named place in another city, or null. */
    public Place twin(Place p) {
        int t = map.twins()[p.index()];
        return t < 0 ? null : map.places().get(t);
    }

    public List<Reservation> reservations() { return List.copyOf(reservations); }

    // ---------------------------------------------------------------- availability

    /** Seats already taken by bookings outside this episode: a fixed function of the slot. */
    int prebooked(Place p, int day, int hour) {
        long h = Seeds.mix(Seeds.mix(map.seed(), p.index() * 1_000L + day * 31L + hour), 0xB00C);
        double u = (h >>> 11) * 0x1.0p-53;
        if (u < 0.18) return p.capacity();              // fully booked
        return (int) (((h >>> 3) & 0xffff) % (p.capacity() * 7 / 10 + 1));
    }

    int seatsLeft(Place p, int day, int hour) {
        int taken = prebooked(p, day, hour);
        String date = DATES.get(day);
        String time = time(hour);
        for (Reservation r : reservations) {
            if (r.placeId().equals(p.id()) && r.date().equals(date) && r.time().equals(time) && r.status().equals("confirmed")) {
                taken += r.party();
            }
        }
        return Math.max(0, p.capacity() - taken);
    }

    boolean available(Place p, int day, int hour, int party) {
        return p.category().reservable && p.openAt(day, hour) && hour + 1 <= p.hours()[day][1] && seatsLeft(p, day, hour) >= party;
    }

    /** Later times the same day with room for the party, earliest first. */
    List<String> laterTimes(Place p, int day, int hour, int party) {
        List<String> out = new ArrayList<>();
        for (int h = hour + 1; h < 24; h++) if (available(p, day, h, party)) out.add(time(h));
        return out;
    }

    Reservation book(Place p, String date, String time, int party, String guest) {
        Reservation r = new Reservation(newReservationId(), p.id(), date, time, party, guest, newCode(), "confirmed", false, null);
        reservations.add(r);
        return r;
    }

    Reservation addExisting(Place p, String date, String time, int party, String guest) {
        Reservation r = new Reservation(newReservationId(), p.id(), date, time, party, guest, newCode(), "confirmed", true, null);
        reservations.add(r);
        return r;
    }

    Reservation reservation(String id) {
        for (Reservation r : reservations) if (r.id().equals(id)) return r;
        return null;
    }

    void replace(Reservation updated) {
        reservations.replaceAll(r -> r.id().equals(updated.id()) ? updated : r);
    }

    String newCode() {
        return Codes.plain(codes, "V", 6);
    }

    private String newReservationId() {
        while (true) {
            String id = "R-" + (10000 + codes.nextInt(90000));
            if (reservation(id) == null) return id;
        }
    }

    static String time(int hour) {
        return String.format(Locale.ROOT, "%02d:00", hour);
    }

    /** "19:00" -> 19, or -1 when the text is not a whole hour. */
    static int hour(String time) {
        if (time.length() != 5 || time.charAt(2) != ':' || !time.endsWith(":00")) return -1;
        try {
            int h = Integer.parseInt(time.substring(0, 2));
            return h >= 0 && h < 24 ? h : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // ---------------------------------------------------------------- generation

    static Layout generate(Split split, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<String> cityPool = new ArrayList<>(Names.half(PoiNames.CITIES, split));
        List<City> cities = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            String name = cityPool.remove(rnd.nextInt(cityPool.size()));
            List<String> districts = new ArrayList<>(PoiNames.DISTRICTS);
            List<String> chosen = new ArrayList<>();
            for (int d = 0; d < 4; d++) chosen.add(districts.remove(rnd.nextInt(districts.size())));
            cities.add(new City(name, List.copyOf(chosen)));
        }
        List<Place> places = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Map<Category, List<String>> earlierNames = new HashMap<>();   // names used in earlier cities, by category
        for (City city : cities) {
            double[][] centers = new double[4][];
            for (int d = 0; d < 4; d++) centers[d] = new double[]{1.5 + rnd.nextDouble() * 7, 1.5 + rnd.nextDouble() * 7};
            Set<String> namesHere = new HashSet<>();
            List<String> stemsHere = new ArrayList<>();
            for (var e : PER_CITY.entrySet()) {
                Category cat = e.getKey();
                for (int i = 0; i < e.getValue(); i++) {
                    String name = null;
                    double r = rnd.nextDouble();
                    List<String> sameKind = earlierNames.getOrDefault(cat, List.of());
                    if (r < 0.35 && !sameKind.isEmpty()) {
                        // A twin: the same name as a place of the same category in another city.
                        String twin = sameKind.get(rnd.nextInt(sameKind.size()));
                        if (!namesHere.contains(twin)) name = twin;
                    }
                    if (name == null && r < 0.6 && !stemsHere.isEmpty()) {
                        // A near miss: a stem already used here with another suffix.
                        String stem = stemsHere.get(rnd.nextInt(stemsHere.size()));
                        String candidate = stem + " " + cat.suffixes.get(rnd.nextInt(cat.suffixes.size()));
                        if (!namesHere.contains(candidate)) name = candidate;
                    }
                    while (name == null || namesHere.contains(name)) {
                        String stem = PoiNames.stem(split, rnd);
                        name = stem + " " + cat.suffixes.get(rnd.nextInt(cat.suffixes.size()));
                    }
                    namesHere.add(name);
                    stemsHere.add(name.substring(0, name.indexOf(' ', name.indexOf(' ') + 1)));
                    int d = rnd.nextInt(4);
                    double x = round1(clamp(centers[d][0] + rnd.nextGaussian() * 0.9));
                    double y = round1(clamp(centers[d][1] + rnd.nextGaussian() * 0.9));
                    String id;
                    do id = "P" + (1000 + rnd.nextInt(9000)); while (!ids.add(id));
                    String cuisine = cat == Category.RESTAURANT ? CUISINES.get(rnd.nextInt(CUISINES.size())) : null;
                    double rating = round1(3.0 + rnd.nextDouble() * 2.0);
                    int price = 1 + rnd.nextInt(4);
                    String phone = "+1-555-" + (1000 + rnd.nextInt(9000));
                    String address = (1 + rnd.nextInt(240)) + " " + PoiNames.NOUNS.get(rnd.nextInt(PoiNames.NOUNS.size())) + " Street";
                    int capacity = cat.reservable ? 12 + rnd.nextInt(29) : 0;
                    Place p = new Place(id, name, cat, cuisine, city.name(), city.districts().get(d), rating, price, x, y,
                            phone, address, capacity, hours(cat, rnd), places.size(), name.toLowerCase(Locale.ROOT));
                    places.add(p);
                }
            }
            for (Place p : places) {
                if (p.city().equals(city.name())) earlierNames.computeIfAbsent(p.category(), k -> new ArrayList<>()).add(p.name());
            }
        }
        // Stored in name order (then city): searches return results in that order without sorting.
        places.sort(java.util.Comparator.comparing(Place::name).thenComparing(Place::city));
        List<Place> ordered = new ArrayList<>(places.size());
        for (Place p : places) {
            ordered.add(new Place(p.id(), p.name(), p.category(), p.cuisine(), p.city(), p.district(), p.rating(), p.price(),
                    p.x(), p.y(), p.phone(), p.address(), p.capacity(), p.hours(), ordered.size(), p.lowerName()));
        }
        Map<String, Place> byId = new HashMap<>();
        Map<String, List<Place>> byCity = new HashMap<>();
        int[] twins = new int[ordered.size()];
        java.util.Arrays.fill(twins, -1);
        Map<String, Integer> firstByName = new HashMap<>();
        for (Place p : ordered) {
            byId.put(p.id(), p);
            byCity.computeIfAbsent(p.city().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(p);
            Integer other = firstByName.putIfAbsent(p.name(), p.index());
            if (other != null) {
                twins[p.index()] = other;
                if (twins[other] < 0) twins[other] = p.index();
            }
        }
        Map<String, List<Place>> frozen = new HashMap<>();
        byCity.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
        boolean[] unique = new boolean[ordered.size()];
        for (Place p : ordered) {
            int matches = 0;
            for (Place q : frozen.get(p.city().toLowerCase(Locale.ROOT))) if (q.lowerName().contains(p.lowerName())) matches++;
            unique[p.index()] = matches == 1;
        }
        return new Layout(seed, split, List.copyOf(cities), List.copyOf(ordered), Map.copyOf(byId), Map.copyOf(frozen), twins, unique);
    }

    private static int[][] hours(Category cat, SplittableRandom rnd) {
        int[][] h = new int[7][];
        int closedDay = rnd.nextDouble() < 0.4 ? rnd.nextInt(7) : -1;
        if (cat == Category.MUSEUM) closedDay = 0;
        int shift = cat == Category.HOTEL ? 0 : rnd.nextInt(3) - 1;
        for (int d = 0; d < 7; d++) {
            if (d == closedDay && cat != Category.HOTEL) continue;
            int opens = Math.max(0, cat.opens + shift + (d >= 5 && cat != Category.HOTEL ? 1 : 0));
            int closes = Math.min(24, cat.closes + shift + (d >= 4 && cat == Category.BAR ? 1 : 0));
            h[d] = new int[]{opens, closes};
        }
        return h;
    }

    private static double clamp(double v) { return Math.max(0, Math.min(10, v)); }

    static double round1(double v) { return Math.round(v * 10) / 10.0; }

    /** Street distance in km between two places (1.3 x straight line), one decimal. */
    static double distanceKm(Place a, Place b) {
        return round1(Math.hypot(a.x() - b.x(), a.y() - b.y()) * 1.3);
    }
}
