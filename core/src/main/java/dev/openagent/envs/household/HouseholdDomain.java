package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Task;
import dev.openagent.domain.Domain;
import dev.openagent.domain.Surface;

import java.util.List;

/**
 * A house to tidy, ALFWorld-style: rooms with furniture and appliances, things to find, move, heat,
 * cool, clean and wash. Acting is by text commands ("go to kitchen", "open fridge", "take red apple
 * from fridge"), observations are prose, and the valid commands are only listed by {@code help}.
 */
public final class HouseholdDomain {
    private HouseholdDomain() {}

    private static final String RULES = """
                - You start in the hallway of a house. You can hold one thing at a time.
                - Things inside closed furniture (fridge, cabinets, drawers...) are only seen once it is opened.
                - When a request to move or change things is done, the house shows a completion code: include it in your answer.
                - Change only what was asked; for questions, move nothing.""";

    public static final Domain<HouseholdWorld> DOMAIN = new Domain<>("household",
            "A house to tidy by text commands: find, move, heat, cool, clean and wash things across rooms (ALFWorld-like).",
            RULES, new Surface.TextCommands<>(HouseholdCommands.VERBS, HouseholdCommands.HELP, HouseholdCommands::execute),
            HouseholdWorld::of, HouseholdTasks.KINDS.all(), HouseholdTasks::generate, HouseholdDomain::check, HouseholdVocabulary.VOCABULARY);

    /** The world state after the answer passed its check: exactly the requested change, nothing else. */
    private static String check(Task task, HouseholdWorld world, String answer) {
        List<Thing> disturbed = world.disturbed();
        if (!disturbed.isEmpty()) {
            return (task.writes() ? "moved or changed what the request did not ask for: " : "changed the house on a question: ")
                    + disturbed.getFirst().name();
        }
        if (!task.writes()) return null;
        if (!world.reached()) return "the goal is not reached in the final state of the house";
        if (!Checks.mentions(answer, world.code)) return "answer lacks the completion code";
        return null;
    }
}
