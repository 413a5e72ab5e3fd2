package dev.openagent.envs.medical;

import dev.openagent.envs.kit.Names;
import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.medical.MedicalWorld.Doctor;
import dev.openagent.envs.medical.MedicalWorld.Drug;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The hospital's words, as shifts read them: synonyms of the words its tool, parameter and key names
 * are made of, rewrites for paraphrasing its requests, and distracting sentences about its doctors,
 * drugs and campuses.
 */
final class MedicalVocabulary {
    private MedicalVocabulary() {}

    /** Synonyms and paraphrase rewrites from vocabulary.yaml beside this class, and the distractions below. */
    static final Vocabulary<MedicalWorld> VOCABULARY = Vocabulary.load(MedicalVocabulary.class, "vocabulary.yaml", MedicalVocabulary::distractions);

    /** A neighbour's doctor and a friend's drug the query does not name, and a campus's parking. */
    static List<String> distractions(Task task, MedicalWorld w, SplittableRandom rnd) {
        List<String> out = new ArrayList<>();
        Doctor doc = Pick.any(w.layout().doctors(), rnd, d -> !task.query().contains(d.name()));
        if (doc != null) out.add("My neighbour sees " + doc.name() + " in " + doc.department() + " and says good things about them.");
        Drug drug = Pick.any(w.layout().drugs(), rnd, d -> !task.query().contains(d.name()));
        if (drug != null) out.add("A friend of mine takes " + drug.name() + " and had no trouble with it.");
        String campus = Names.any(w.layout().campuses(), rnd);
        out.add("Parking at the " + campus + " Campus was a nightmare last time.");
        return out;
    }
}
