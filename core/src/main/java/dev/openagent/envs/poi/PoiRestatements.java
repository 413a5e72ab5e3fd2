package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.envs.kit.TaskVariants;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.envs.poi.PoiWorld.Reservation;
import dev.openagent.json.Json;
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

/**
 * How poi tasks are restated, as their kinds declare ({@link PoiLookups}, {@link PoiBookings}): made
 * impossible in the realistic ways this world allows (the place, the date, the city or the booking does
 * not exist), or reached through a longer chain of nearest-place look-ups.
 */
final class PoiRestatements {
    private PoiRestatements() {}

    private static final String SEARCH = "search_places";

    // ---------------------------------------------------------------- impossible

    /** The place asked about does not exist: its name is replaced by one no place has (or contains). */
    static Optional<Task> missingPlace(Task task, PoiWorld w, SplittableRandom rnd) {
        GoldPlan.Call first = task.plan().calls().getFirst();
        JsonNode args = first.args();
        if (!first.tool().equals(SEARCH) || !args.has("name") || !args.has("city")) return Optional.empty();
        String name = args.get("name").asText();
        String city = args.get("city").asText();
        if (!task.query().contains(name)) return Optional.empty();
        String suffix = name.substring(name.lastIndexOf(' ') + 1);
        String fake = null;
        for (int i = 0; i < 100 && fake == null; i++) {
            String candidate = PoiNames.stem(w.layout().split(), rnd) + " " + suffix;
            String lower = candidate.toLowerCase(Locale.ROOT);
            if (w.places().stream().noneMatch(p -> p.name().toLowerCase(Locale.ROOT).contains(lower))) fake = candidate;
        }
        if (fake == null) return Optional.empty();
        ObjectNode probe = Json.object();
        probe.put("city", city);
        probe.put("name", fake);
        List<Detail> details = TaskVariants.replaceInDetails(task.details(), name, fake, true);
        return Optional.of(task.unsolvable(task.query().replace(name, fake), List.of(new GoldPlan.Call(SEARCH, probe)),
                "There is no place called " + fake + " in " + city + ".", details));
    }

    /** The booking is for a date outside the bookable week, which no booking can ever have. */
    static Optional<Task> outsideWeek(Task task, PoiWorld w, SplittableRandom rnd) {
        String date = task.expect().get("date");
        if (date == null || !task.query().contains(date)) return Optional.empty();
        List<String> outside = List.of("2026-11-30", "2026-12-01", "2026-12-04", "2026-12-05", "2026-12-06", "2026-12-14",
                "2026-12-15", "2026-12-18", "2026-12-19", "2026-12-20", "2027-01-08");
        String other = outside.get(rnd.nextInt(outside.size()));
        List<GoldPlan.Call> probes = TaskVariants.probesUntil(task.plan(), "date", other);
        return Optional.of(task.unsolvable(task.query().replace(date, other), probes,
                other + " is outside the bookable week (" + PoiWorld.DATES.getFirst() + " to " + PoiWorld.DATES.getLast() + ").",
                TaskVariants.replaceInDetails(task.details(), date, other, false)));
    }

    /** The area asked about is a city the service does not cover. */
    static Optional<Task> unknownCity(Task task, PoiWorld w, SplittableRandom rnd) {
        JsonNode args = task.plan().calls().getFirst().args();
        if (!args.has("city")) return Optional.empty();
        String city = args.get("city").asText();
        if (!task.query().contains(city)) return Optional.empty();
        List<String> pool = new ArrayList<>(PoiNames.CITIES);
        pool.removeIf(c -> w.cities().stream().anyMatch(x -> x.name().equals(c)) || task.query().contains(c));
        String other = pool.get(rnd.nextInt(pool.size()));
        ObjectNode probe = args.deepCopy();
        probe.put("city", other);
        return Optional.of(task.unsolvable(task.query().replace(city, other), List.of(new GoldPlan.Call(SEARCH, probe)),
                "This service does not cover " + other + ".", TaskVariants.replaceInDetails(task.details(), city, other, true)));
    }

    /** The booking to cancel was never made: another date, on which the guest has no booking there. */
    static Optional<Task> neverBooked(Task task, PoiWorld w, SplittableRandom rnd) {
        Reservation target = w.reservation(task.expect().getOrDefault("cancel", ""));
        if (target == null || !task.query().contains(target.date())) return Optional.empty();
        List<String> free = new ArrayList<>();
        for (String d : PoiWorld.DATES) {
            boolean taken = w.reservations.stream().anyMatch(r -> r.guest().equals(target.guest()) && r.date().equals(d)
                    && r.placeId().equals(target.placeId()));
            if (!taken) free.add(d);
        }
        if (free.isEmpty()) return Optional.empty();
        String other = free.get(rnd.nextInt(free.size()));
        ObjectNode probe = Json.object();
        probe.put("guest_name", target.guest());
        return Optional.of(task.unsolvable(task.query().replace(target.date(), other), List.of(new GoldPlan.Call("find_reservations", probe)),
                target.guest() + " has no booking at " + w.place(target.placeId()).name() + " on " + other + ".",
                TaskVariants.replaceInDetails(task.details(), target.date(), other, false)));
    }

    // ---------------------------------------------------------------- longer chain

    /**
     * The named place becomes "the CATEGORY nearest to X", nested up to {@code extra} times: each
     * level a landmark whose nearest place of that category is, by at least 0.2 km, the one before.
     */
    static Optional<Chain> nearestLandmark(Task task, PoiWorld w, SplittableRandom rnd, int extra) {
        if (task.plan().calls().isEmpty()) return Optional.empty();
        GoldPlan.Call first = task.plan().calls().getFirst();
        JsonNode args = first.args();
        if (!first.tool().equals(SEARCH) || !args.has("name") || !args.has("city")) return Optional.empty();
        String name = args.get("name").asText();
        String city = args.get("city").asText();
        String phrase = name + " in " + city;
        int at = task.query().indexOf(phrase);
        if (at < 0 || task.query().indexOf(phrase, at + 1) >= 0) return Optional.empty();
        Place target = w.places().stream().filter(p -> p.name().equals(name) && p.city().equals(city)).findFirst().orElse(null);
        if (target == null) return Optional.empty();
        List<Place> chain = new ArrayList<>(List.of(target));
        for (int level = 0; level < extra; level++) {
            Place landmark = landmarkFor(w, chain.getLast(), chain, rnd);
            if (landmark == null) break;
            chain.add(landmark);
        }
        if (chain.size() < 2) return Optional.empty();
        Place start = chain.getLast();
        StringBuilder description = new StringBuilder();
        for (int i = 0; i < chain.size() - 1; i++) description.append("the ").append(chain.get(i).category().id).append(" nearest to ");
        description.append(start.name()).append(" in ").append(city);
        List<GoldPlan.Call> hops = new ArrayList<>();
        ObjectNode search = Json.object();
        search.put("city", city);
        search.put("name", start.name());
        hops.add(new GoldPlan.Call(SEARCH, search));
        int k = indexInSearch(w, start);
        for (int i = chain.size() - 2; i >= 0; i--) {
            ObjectNode nearby = Json.object();
            nearby.put("category", chain.get(i).category().id);
            String pointer = hops.size() == 1 ? "/results/" + k + "/place_id" : "/results/0/place_id";
            hops.add(new GoldPlan.Call("find_nearby", nearby, Map.of("place_id", new Ref(hops.size() - 1, pointer))));
        }
        String query = task.query().substring(0, at) + description + task.query().substring(at + phrase.length());
        boolean twin = w.places().stream().anyMatch(p -> p != start && p.name().equals(start.name()));
        List<Detail> details = task.details().stream()
                .map(d -> d.key().equals("city") ? new Detail(d.key(), d.span(), d.keywords(), d.reply(), twin) : d)
                .filter(d -> query.contains(d.span())).toList();
        return Optional.of(new Chain(query, hops, "/results/0/place_id", target.id(), details));
    }

    /** A place of the same city, not yet in the chain, whose nearest place of the target's category is the target. */
    private static Place landmarkFor(PoiWorld w, Place target, List<Place> used, SplittableRandom rnd) {
        List<Place> pool = new ArrayList<>(w.places().stream().filter(p -> p.city().equals(target.city()) && !used.contains(p)).toList());
        while (!pool.isEmpty()) {
            Place l = pool.remove(rnd.nextInt(pool.size()));
            if (indexInSearch(w, l) < 0) continue;
            List<Place> near = PoiTools.nearbyResults(w, l, target.category().id, null, 3.0);
            if (near.isEmpty() || near.getFirst() != target) continue;
            if (near.size() > 1 && PoiWorld.distanceKm(l, near.get(1)) - PoiWorld.distanceKm(l, target) < 0.2) continue;
            return l;
        }
        return null;
    }

    /** The index of the place in a search by its full name within its city, or -1 when its name is not unique there. */
    private static int indexInSearch(PoiWorld w, Place p) {
        String lower = p.name().toLowerCase(Locale.ROOT);
        long n = w.places().stream().filter(x -> x.city().equals(p.city()) && x.name().toLowerCase(Locale.ROOT).contains(lower)).count();
        return n == 1 ? 0 : -1;
    }
}
