package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdNames.Kind;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.sandbox.Checks;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static dev.openagent.envs.household.HouseholdTasks.colour;

/**
 * The household's questions, which must move nothing: how many things of a kind a container holds, and
 * where a thing is. Each sets up its task on its generator and returns false, having changed nothing,
 * when the house cannot pose it.
 */
final class HouseholdQuestions {
    private final HouseholdTasks g;
    private final HouseholdWorld w;
    private final SplittableRandom rnd;
    private final TaskDraft<HouseholdWorld> draft;

    HouseholdQuestions(HouseholdTasks g) {
        this.g = g;
        this.w = g.w;
        this.rnd = g.rnd;
        this.draft = g.draft;
    }

    boolean countInContainer() {
        for (Receptacle rec : Pick.preferring(w.map.receptacles(), rnd, r -> r.openable() && !inside(r).isEmpty(), 0.95)) {
            List<Integer> inside = inside(rec);
            // Count one kind (there or elsewhere in the house); the other things in the container are the near miss.
            Kind kind = inside.isEmpty() ? w.thing(rnd.nextInt(w.map.things().size())).kind() : w.thing(inside.get(rnd.nextInt(inside.size()))).kind();
            int n = 0;
            for (int t : inside) if (w.thing(t).kind() == kind) n++;
            g.goTo(rec.room());
            if (rec.openable()) g.run("open " + rec.name());
            String inRoom = " in the " + g.room(rec);
            draft.query = "How many " + kind.plural() + " are " + rec.prep() + " " + HouseholdCommands.the(rec.name()) + inRoom
                    + "? Reply with the number, and don't move anything.";
            draft.answer = "There " + (n == 1 ? "is 1 " + kind.name() : "are " + n + " " + kind.plural()) + " " + rec.prep() + " "
                    + HouseholdCommands.the(rec.name()) + ".";
            draft.must.add(Integer.toString(n));
            g.targetDetail(rec, inRoom);
            return true;
        }
        return false;
    }

    private List<Integer> inside(Receptacle rec) {
        List<Integer> out = new ArrayList<>();
        for (Thing t : w.map.things()) if (t.start() == rec.index()) out.add(t.index());
        return out;
    }

    boolean findLocation() {
        int t = g.things().getFirst();
        Thing thing = w.thing(t);
        Receptacle at = w.receptacle(thing.start());
        g.search(t);
        String colour = colour(thing);
        draft.query = "Where is the" + colour + " " + thing.kind().name() + "? Tell me the room and the piece of furniture where it is, "
                + "without moving anything.";
        draft.answer = "The " + thing.name() + " is " + at.prep() + " " + HouseholdCommands.the(at.name()) + " in the " + g.room(at) + ".";
        draft.must.add(g.room(at));
        draft.must.add(at.name());
        String said = Checks.normalize(draft.answer);
        for (Thing other : w.map.things()) {
            if (other == thing || other.kind() != thing.kind()) continue;
            Receptacle r = w.receptacle(other.start());
            for (String wrong : new String[]{g.room(r), r.name()}) {
                if (!said.contains(Checks.normalize(wrong)) && !draft.mustNot.contains(wrong)) draft.mustNot.add(wrong);
            }
        }
        g.colourDetail(t, colour, -1);
        return true;
    }
}
