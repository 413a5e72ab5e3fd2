package dev.openagent.envs.household;

import dev.openagent.domain.Vocabulary;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.sandbox.EnvFacts.Rewrite;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The household's words for shifts: synonyms of the verbs {@code help} lists, phrasings of its requests,
 * and distracting remarks about other things of the house.
 */
final class HouseholdVocabulary {
    private HouseholdVocabulary() {}

    /** Synonyms of the verbs help lists (a verb of several words is renamed word by word, like a tool name). */
    private static final Map<String, List<String>> SYNONYMS = Map.ofEntries(
            Map.entry("look", List.of("view", "survey", "observe")),
            Map.entry("inventory", List.of("holdings", "belongings", "carrying")),
            Map.entry("go", List.of("walk", "head", "travel")),
            Map.entry("to", List.of("toward", "into")),
            Map.entry("open", List.of("unlatch", "unseal", "uncover")),
            Map.entry("close", List.of("shut", "seal", "latch")),
            Map.entry("take", List.of("grab", "collect", "fetch")),
            Map.entry("put", List.of("place", "set", "stow")),
            Map.entry("heat", List.of("warm", "cook", "reheat")),
            Map.entry("cool", List.of("chill", "refrigerate", "ice")),
            Map.entry("clean", List.of("wash", "scrub", "rinse")),
            Map.entry("examine", List.of("inspect", "study", "scrutinize")));

    private static final List<Rewrite> PARAPHRASES = Vocabulary.rewrites(
            "^Put the ", "Place the ",
            " and put it ", " and then leave it ",
            "I don't remember where the (\\w+) is\\.", "I've forgotten where I left the $1.",
            "Reply with the number, and don't move anything\\.", "Just give me the number; leave everything where it is.",
            "Tell me the room and the piece of furniture where it is, without moving anything\\.",
            "Which room and which piece of furniture is it in? Please don't move anything.");

    static final Vocabulary<HouseholdWorld> VOCABULARY = new Vocabulary<>(SYNONYMS, PARAPHRASES, HouseholdVocabulary::distractions);

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
