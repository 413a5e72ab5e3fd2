package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.Params;
import dev.openagent.domain.TaskKind;
import dev.openagent.domain.Tool;
import dev.openagent.envs.kit.TaskGenerator;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.kit.TaskKinds;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
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
 * The kinds are declared by family ({@link PoiLookups}, {@link PoiBookings}); each poses in every world,
 * so one is drawn per level. Targets are chosen among places that have a same-named twin in another city
 * and near-miss neighbours, so a sloppy agent picks the wrong one. Plans are computed with the functions
 * the tools themselves use ({@link PoiTools#searchResults}, {@link PoiTools#nearbyResults}), so they match
 * what the agent will see; look-ups are added without running them ({@link TaskDraft#add}), which keeps
 * a reset cheap.
 */
final class PoiTasks extends TaskGenerator<PoiWorld> {
    /** Every kind, by difficulty; within a level, in the order a kind is drawn from. */
    static final TaskKinds<PoiWorld, PoiTasks> KINDS = new TaskKinds<>(
            PoiLookups.RATING, PoiLookups.COUNT,
            PoiLookups.PHONE, PoiLookups.HOURS, PoiBookings.CANCEL,
            PoiBookings.BOOK, PoiLookups.NEAREST_PHONE,
            PoiBookings.CONSTRAINED, PoiBookings.CLOSER);

    private static final Params SEARCH = PoiTools.ALL.stream().filter(t -> t.name().equals("search_places")).map(Tool::params).findFirst().orElseThrow();

    private PoiTasks(PoiWorld w, long seed) {
        super(w, seed, 0x7A5C, PoiTools.ALL);
    }

    static Task generate(PoiWorld world, TaskRequest request, long seed) {
        PoiTasks g = new PoiTasks(world, seed);
        int difficulty = KINDS.level(request, g.rnd);
        TaskKind<PoiWorld, PoiTasks> kind = Names.any(KINDS.of(difficulty), g.rnd);
        kind.pose().test(g);
        // A near miss can share a value with the target (two places with one phone number): it is then no near miss.
        g.draft.mustNot.removeIf(bad -> g.draft.must.stream().anyMatch(good -> Checks.normalize(good).equals(Checks.normalize(bad))));
        return g.draft.build("poi", request, kind.name(), difficulty);
    }

    // ---------------------------------------------------------------- what the families share

    /**
     * A random place matching the filter; with {@code preferTwin}, one that has a same-named twin in
     * another city when there is one (so leaving out the city makes the request ambiguous).
     */
    Place pick(Predicate<Place> filter, boolean preferTwin) {
        List<Place> pool = w.places().stream().filter(filter).toList();
        if (preferTwin) {
            List<Place> twinned = pool.stream().filter(p -> twin(p).isPresent()).toList();
            if (!twinned.isEmpty() && rnd.nextDouble() < 0.8) pool = twinned;
        }
        return pool.get(rnd.nextInt(pool.size()));
    }

    Optional<Place> twin(Place p) {
        return Optional.ofNullable(w.twin(p));
    }

    /** Adds search_places(city, name) for the place; returns its index in the results. */
    int addSearchByName(Place p) {
        int k = PoiTools.searchResults(w, PoiTools.SearchFilter.byName(p)).indexOf(p);
        if (k < 0) throw new IllegalStateException("search does not find " + p.name());
        draft.add("search_places", TaskDraft.args("city", p.city(), "name", p.name()));
        return k;
    }

    void cityDetail(Place p) {
        draft.details.add(new Detail("city", " in " + p.city(), "city|where|which one|location|town",
                "I mean the one in " + p.city() + ".", twin(p).isPresent()));
    }

    /** How many places search_places returns for these arguments. */
    int count(ObjectNode args) {
        return PoiTools.searchResults(w, PoiTools.filter(SEARCH.validate(args))).size();
    }

    static String plural(Category c) {
        return switch (c) {
            case CAFE -> "cafes";
            case BAKERY -> "bakeries";
            case RESTAURANT -> "restaurants";
            default -> c.id + "s";
        };
    }

    static String title(String s) {
        return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }
}
