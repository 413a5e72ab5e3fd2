package dev.openagent.envs.poi;

import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Poi's words: synonyms for its names, rewrites of its requests, and distracting sentences about its world. */
final class PoiVocabulary {
    private PoiVocabulary() {}

    static final Vocabulary<PoiWorld> VOCABULARY = new Vocabulary<>(
            Map.of("reservation", List.of("booking", "table_booking", "table_reservation"),
                    "place", List.of("venue", "spot", "establishment"),
                    "places", List.of("venues", "spots", "establishments")),
            Vocabulary.rewrites(
                    "\\bphone number\\b", "telephone number",
                    "\\bnearest\\b", "closest",
                    "\\bunder the name\\b", "in the name of",
                    "\\brated at least\\b", "with a rating of at least",
                    "\\bhas a price level of at most\\b", "is no pricier than level",
                    "\\bTell me the cancellation code\\b", "Please let me know the cancellation code",
                    "\\bbook the earliest later time that day\\b", "take the first free time after it on the same day",
                    "\\bwhichever is closer to it\\b", "whichever of these is nearer to it"),
            PoiVocabulary::distractions);

    /** Sentences about places and districts of this world that the request does not name. */
    private static List<String> distractions(Task task, PoiWorld w, SplittableRandom rnd) {
        List<Place> others = w.places().stream().filter(p -> !task.query().contains(p.name())).toList();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 3 && !others.isEmpty(); i++) {
            Place p = others.get(rnd.nextInt(others.size()));
            out.add(switch (i) {
                case 0 -> "Last month I went to " + p.name() + " in " + p.city() + " and loved it.";
                case 1 -> "My cousin lives in the " + p.district() + " district of " + p.city() + ".";
                default -> "I heard " + p.name() + " is often fully booked around " + PoiWorld.time(12 + rnd.nextInt(9)) + ".";
            });
        }
        return out;
    }
}
