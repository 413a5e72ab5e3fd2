package dev.openagent.envs.household;

import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The household's words for shifts: synonyms of the verbs {@code help} lists, phrasings of its requests,
 * and distracting remarks about other things of the house.
 */
final class HouseholdVocabulary {
    private HouseholdVocabulary() {}

    /** Synonyms and paraphrase rewrites from vocabulary.yaml beside this class, and the distractions below. */
    static final Vocabulary<HouseholdWorld> VOCABULARY = Vocabulary.load(HouseholdVocabulary.class, "vocabulary.yaml", HouseholdVocabulary::distractions);

    /** Up to three remarks about things the request does not name: a present, a tidied room, a flatmate's thing. */
    private static List<String> distractions(Task task, HouseholdWorld w, SplittableRandom rnd) {
        List<Thing> others = w.map.things().stream().filter(t -> !task.query().contains(t.name())).toList();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 3 && !others.isEmpty(); i++) {
            Thing t = others.get(rnd.nextInt(others.size()));
            Receptacle r = w.receptacle(t.start());
            out.add(switch (i) {
                case 0 -> "The " + t.name() + " " + r.prep() + " " + HouseholdCommands.the(r.name()) + " in the " + w.roomName(r)
                        + " was a present from my aunt.";
                case 1 -> "I tidied the " + w.roomName(r) + " yesterday, so it should be in good shape.";
                default -> "Please leave the " + t.name() + " alone, it belongs to my flatmate.";
            });
        }
        return out;
    }
}
