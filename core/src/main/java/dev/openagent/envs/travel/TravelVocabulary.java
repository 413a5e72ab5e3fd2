package dev.openagent.envs.travel;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.travel.TravelWorld.Flight;
import dev.openagent.envs.travel.TravelWorld.Hotel;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Travel's words: synonyms for its names, rewrites of its requests, and distracting sentences about its world. */
final class TravelVocabulary {
    private TravelVocabulary() {}

    /** Synonyms and paraphrase rewrites from vocabulary.yaml beside this class, and the distractions below. */
    static final Vocabulary<TravelWorld> VOCABULARY = Vocabulary.load(TravelVocabulary.class, "vocabulary.yaml", TravelVocabulary::distractions);

    /** Sentences about hotels, cities and flights of this world that the request does not name. */
    private static List<String> distractions(Task task, TravelWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Hotel h = Pick.any(w.layout().hotels(), rnd, x -> !task.query().contains(x.name()));
        if (h != null) out.add("Last year I stayed at the " + h.name() + " in " + h.city() + " and the breakfast was great.");
        String city = Names.any(w.layout().cities(), rnd);
        out.add("I might also visit a friend in " + city + " later in the month.");
        Flight f = Names.any(w.layout().flights(), rnd);
        if (!task.query().contains(f.number())) out.add("My colleague is on flight " + f.number() + " that week.");
        return out;
    }
}
