package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.domain.TaskKind;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.envs.poi.PoiWorld.Category;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Detail;

import java.util.List;
import java.util.Map;

import static dev.openagent.envs.kit.TaskDraft.ref;

/** Look-ups: a place's rating, phone or opening hours, the phone of the nearest place of a kind, a filtered count. */
final class PoiLookups {
    private PoiLookups() {}

    static final TaskKind<PoiWorld, PoiTasks> RATING = TaskKind.<PoiWorld, PoiTasks>of("rating_lookup", 1, PoiLookups::ratingLookup)
            .impossibleBy(PoiRestatements::missingPlace).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> COUNT = TaskKind.<PoiWorld, PoiTasks>of("count_places", 1, PoiLookups::countPlaces)
            .impossibleBy(PoiRestatements::unknownCity).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> PHONE = TaskKind.<PoiWorld, PoiTasks>of("phone_lookup", 2, PoiLookups::phoneLookup)
            .impossibleBy(PoiRestatements::missingPlace).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> HOURS = TaskKind.<PoiWorld, PoiTasks>of("hours_lookup", 2, PoiLookups::hoursLookup)
            .impossibleBy(PoiRestatements::missingPlace).longerBy(PoiRestatements::nearestLandmark);
    static final TaskKind<PoiWorld, PoiTasks> NEAREST_PHONE = TaskKind.<PoiWorld, PoiTasks>of("nearest_phone", 3, PoiLookups::nearestPhone)
            .impossibleBy(PoiRestatements::missingPlace).longerBy(PoiRestatements::nearestLandmark);

    private static boolean ratingLookup(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        Place p = g.pick(x -> true, true);
        int k = g.addSearchByName(p);
        t.query = "What is the rating of " + p.name() + " in " + p.city() + "?";
        t.answer = p.name() + " in " + p.city() + " is rated {0:/results/" + k + "/rating}.";
        t.must.add(Double.toString(p.rating()));
        g.twin(p).filter(x -> x.rating() != p.rating()).ifPresent(x -> t.mustNot.add(Double.toString(x.rating())));
        g.cityDetail(p);
        return true;
    }

    private static boolean countPlaces(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        for (int attempt = 0; ; attempt++) {
            Place seedPlace = g.w.places().get(g.rnd.nextInt(g.w.places().size()));
            double minRating = List.of(3.5, 4.0, 4.5).get(g.rnd.nextInt(3));
            ObjectNode args = TaskDraft.args("city", seedPlace.city(), "category", seedPlace.category().id,
                    "district", seedPlace.district(), "min_rating", minRating);
            int n = g.count(args);
            ObjectNode loose = args.deepCopy();
            loose.remove("min_rating");
            int all = g.count(loose);
            if ((n == 0 || n == all) && attempt < 40) continue;
            t.add("search_places", args);
            String cat = PoiTasks.plural(seedPlace.category());
            t.query = "How many " + cat + " rated at least " + minRating + " are there in " + seedPlace.city()
                    + ", in the " + seedPlace.district() + " district?";
            t.answer = "There are {0:/count} " + cat + " rated at least " + minRating + ".";
            t.must.add(Integer.toString(n));
            if (all != n) t.mustNot.add(Integer.toString(all));
            t.details.add(new Detail("district", ", in the " + seedPlace.district() + " district",
                    "district|area|neighborhood|neighbourhood|part of", "The " + seedPlace.district() + " district.", false));
            return true;
        }
    }

    private static boolean phoneLookup(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        Place p = g.pick(x -> true, true);
        int k = g.addSearchByName(p);
        t.add("get_place_details", Json.object(), Map.of("place_id", ref(0, "/results/" + k + "/place_id")));
        t.query = "I need the phone number of " + p.name() + " in " + p.city() + ".";
        t.answer = "The phone number of " + p.name() + " is {1:/phone}.";
        t.must.add(p.phone());
        g.twin(p).ifPresent(x -> t.mustNot.add(x.phone()));
        g.cityDetail(p);
        return true;
    }

    private static boolean hoursLookup(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        Place p = g.pick(x -> true, true);
        int day = g.rnd.nextInt(7);
        String dayName = PoiWorld.DAYS.get(day);
        int k = g.addSearchByName(p);
        t.add("get_opening_hours", TaskDraft.args("day", dayName), Map.of("place_id", ref(0, "/results/" + k + "/place_id")));
        String dayTitle = PoiTasks.title(dayName);
        t.query = "When is " + p.name() + " in " + p.city() + " open on " + dayTitle + "?";
        int[] h = p.hours()[day];
        if (h == null) {
            t.answer = p.name() + " is closed on " + dayTitle + ".";
            t.must.add("closed");
        } else {
            t.answer = p.name() + " is open from {1:/opens} to {1:/closes} on " + dayTitle + ".";
            t.must.add(PoiWorld.time(h[0]));
            t.must.add(h[1] == 24 ? "24:00" : PoiWorld.time(h[1]));
            t.mustNot.add("closed");
        }
        g.cityDetail(p);
        t.details.add(new Detail("day", " on " + dayTitle, "day|when|which day", "On " + dayTitle + ".", false));
        return true;
    }

    private static boolean nearestPhone(PoiTasks g) {
        TaskDraft<PoiWorld> t = g.draft;
        for (int attempt = 0; ; attempt++) {
            Place landmark = g.pick(x -> !x.category().reservable && x.category() != Category.BAKERY, false);
            Category cat = List.of(Category.RESTAURANT, Category.CAFE, Category.BAR).get(g.rnd.nextInt(3));
            String cuisine = cat == Category.RESTAURANT && g.rnd.nextBoolean() ? PoiWorld.CUISINES.get(g.rnd.nextInt(PoiWorld.CUISINES.size())) : null;
            List<Place> near = PoiTools.nearbyResults(g.w, landmark, cat.id, cuisine, 3);
            boolean unique = near.size() == 1 || (near.size() > 1
                    && PoiWorld.distanceKm(landmark, near.get(1)) - PoiWorld.distanceKm(landmark, near.get(0)) >= 0.2);
            if (near.isEmpty() || !unique || !g.w.uniqueName(landmark)) {
                if (attempt < 60) continue;
                throw new IllegalStateException("no nearest-place task in this world");
            }
            int k = g.addSearchByName(landmark);
            t.add("find_nearby", TaskDraft.args("category", cat.id, "cuisine", cuisine), Map.of("place_id", ref(0, "/results/" + k + "/place_id")));
            t.add("get_place_details", Json.object(), Map.of("place_id", ref(1, "/results/0/place_id")));
            String what = cuisine == null ? cat.id : cuisine + " restaurant";
            t.query = "I'm at " + landmark.name() + " in " + landmark.city() + ". What is the phone number of the nearest " + what + "?";
            t.answer = "The nearest " + what + " is {1:/results/0/name}; its phone number is {2:/phone}.";
            t.must.add(near.get(0).phone());
            if (near.size() > 1) t.mustNot.add(near.get(1).phone());
            g.cityDetail(landmark);
            return true;
        }
    }
}
