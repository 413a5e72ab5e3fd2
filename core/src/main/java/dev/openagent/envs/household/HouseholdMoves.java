package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.envs.kit.TaskDraft;

import java.util.List;

import static dev.openagent.envs.household.HouseholdTasks.colour;
import static dev.openagent.envs.household.HouseholdTasks.verbOf;

/**
 * The household's writing tasks: moving things to a named place, with closed containers or a
 * transformation on the way, a thing first searched for, or two things at once. Each sets up its task on
 * its generator and returns false, having changed nothing, when the house cannot pose it.
 */
final class HouseholdMoves {
    private final HouseholdTasks g;
    private final HouseholdWorld w;
    private final TaskDraft<HouseholdWorld> draft;

    HouseholdMoves(HouseholdTasks g) {
        this.g = g;
        this.w = g.w;
        this.draft = g.draft;
    }

    /**
     * Moves a thing to a receptacle in another room. {@code fromClosed}/{@code toClosed} ask for closed
     * containers at either end (relaxed when the house has no such pair); {@code transform} adds heating,
     * cooling, cleaning or washing on the way.
     */
    boolean place(boolean fromClosed, boolean toClosed, boolean transform) {
        for (int pass = 0; pass < 2; pass++) {
            for (int t : g.things()) {
                Thing thing = w.thing(t);
                Receptacle from = w.receptacle(thing.start());
                if (pass == 0 && from.openable() != fromClosed) continue;
                int ability = transform ? g.ability(thing.kind()) : HouseholdNames.NONE;
                int appliance = ability == HouseholdNames.NONE ? -1 : g.applianceFor(ability, thing);
                if (transform && appliance < 0) continue;
                boolean strict = pass == 0;
                int target = g.pickTarget(r -> r.room() != from.room() && (!strict || r.openable() == toClosed) && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                g.setGoal(new int[]{t}, target, stateOf(ability));
                g.fetch(t);
                if (appliance >= 0) g.transform(t, ability, appliance);
                g.putInto(t, target);
                Receptacle to = w.receptacle(target);
                String colour = colour(thing);
                String where = ", which is " + from.prep() + " " + HouseholdCommands.the(from.name()) + " in the " + g.room(from) + ",";
                String toRoom = " in the " + g.room(to);
                draft.query = (appliance < 0 ? "Put" : cap(verbOf(ability))) + " the" + colour + " " + thing.kind().name() + where
                        + (appliance < 0 ? " " : " and put it ") + to.prep() + " " + HouseholdCommands.the(to.name()) + toRoom + ".";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                draft.detail("location", where, "where|which room|location|find|is it",
                        "It is " + from.prep() + " " + HouseholdCommands.the(from.name()) + " in the " + g.room(from) + ".", false);
                g.colourDetail(t, colour, from.index());
                g.targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    boolean findTransformPlace() {
        for (int pass = 0; pass < 2; pass++) {
            for (int t : g.things()) {
                Thing thing = w.thing(t);
                Receptacle from = w.receptacle(thing.start());
                if (pass == 0 && !from.openable()) continue;           // prefer things shut away in a container
                int ability = g.ability(thing.kind());
                int appliance = ability == HouseholdNames.NONE ? -1 : g.applianceFor(ability, thing);
                if (appliance < 0) continue;
                int target = g.pickTarget(r -> r.index() != from.index() && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                g.setGoal(new int[]{t}, target, stateOf(ability));
                g.search(t);
                g.transform(t, ability, appliance);
                g.putInto(t, target);
                Receptacle to = w.receptacle(target);
                String colour = colour(thing);
                String toRoom = " in the " + g.room(to);
                draft.query = cap(verbOf(ability)) + " the" + colour + " " + thing.kind().name() + " and put it " + to.prep() + " "
                        + HouseholdCommands.the(to.name()) + toRoom + ". I don't remember where the " + thing.kind().name() + " is.";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                g.colourDetail(t, colour, -1);
                g.targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    boolean twoThings() {
        List<Integer> order = g.things();
        for (int a : order) {
            for (int b : order) {
                Thing ta = w.thing(a);
                Thing tb = w.thing(b);
                if (a == b || ta.kind() == tb.kind() || colour(ta).equals(colour(tb))) continue;
                Receptacle fromA = w.receptacle(ta.start());
                Receptacle fromB = w.receptacle(tb.start());
                int target = g.pickTarget(r -> r.index() != fromA.index() && r.index() != fromB.index() && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                g.setGoal(new int[]{a, b}, target, 0);
                g.fetch(a);
                g.putInto(a, target);
                g.fetch(b);
                g.putInto(b, target);
                Receptacle to = w.receptacle(target);
                String whereA = ", which is " + fromA.prep() + " " + HouseholdCommands.the(fromA.name()) + " in the " + g.room(fromA) + ",";
                String whereB = ", which is " + fromB.prep() + " " + HouseholdCommands.the(fromB.name()) + " in the " + g.room(fromB) + ",";
                String toRoom = " in the " + g.room(to);
                String colourA = colour(ta);
                draft.query = "Put the" + colourA + " " + ta.kind().name() + whereA + " and the " + tb.name() + whereB + " "
                        + to.prep() + " " + HouseholdCommands.the(to.name()) + toRoom + ".";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                draft.detail("location", whereB, "where|which room|location|find|is it",
                        "The " + tb.name() + " is " + fromB.prep() + " " + HouseholdCommands.the(fromB.name()) + " in the " + g.room(fromB) + ".", false);
                g.colourDetail(a, colourA, fromA.index());
                g.targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    private static int stateOf(int ability) {
        return switch (ability) {
            case HouseholdNames.HEATS -> HouseholdWorld.HOT;
            case HouseholdNames.COOLS -> HouseholdWorld.COLD;
            case HouseholdNames.CLEANS, HouseholdNames.WASHES -> HouseholdWorld.CLEAN;
            default -> 0;
        };
    }

    private static String cap(String s) { return Character.toUpperCase(s.charAt(0)) + s.substring(1); }
}
