package dev.openagent.envs.poi;

import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.poi.PoiWorld.Place;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Poi's words: synonyms for its names, rewrites of its requests, and distracting sentences about its world. */
final class PoiVocabulary {
    private PoiVocabulary() {}

    /** Synonyms and paraphrase rewrites from vocabulary.yaml beside this class, and the distractions below. */
    static final Vocabulary<PoiWorld> VOCABULARY = Vocabulary.load(PoiVocabulary.class, "vocabulary.yaml", PoiVocabulary::distractions);

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
