package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdNames.Kind;
import dev.openagent.envs.household.HouseholdWorld.Goal;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.Pick;
import dev.openagent.envs.kit.TaskDraft;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.Commands;
import dev.openagent.domain.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The household task generator. Difficulty grows with the steps a task needs:
 * <ol>
 *   <li>pick and place: a thing in plain sight moved to a named place in another room;</li>
 *   <li>containers: the thing and/or its destination are closed and must be opened; counting what a
 *       closed container holds (a question: nothing may move);</li>
 *   <li>a transformation on the way: heat, cool, clean or wash the thing, then place it;</li>
 *   <li>unknown locations: find the thing (searching rooms and containers), transform and place it; say where
 *       a thing is (a question); move two things.</li>
 * </ol>
 * The gold plan is a command script, rehearsed on a copy of the episode's world as it is written,
 * so it is exactly what the agent would see. Writing tasks show a completion code when the goal is
 * reached, which the answer must carry; the checker also checks the final state of the house.
 */
final class HouseholdTasks {
    static final Map<Integer, List<String>> KINDS = Map.of(
            1, List.of("pick_and_place"),
            2, List.of("container_place", "count_in_container"),
            3, List.of("transform_and_place"),
            4, List.of("find_transform_place", "find_location", "two_things"));

    private final HouseholdWorld w;
    private final SplittableRandom rnd;
    private final TaskDraft<HouseholdWorld> draft;
    private HouseholdWorld sim;

    private HouseholdTasks(HouseholdWorld w, long seed) {
        this.w = w;
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0x40A5E));
        this.draft = new TaskDraft<>(w, List.of());
    }

    static Task generate(HouseholdWorld world, TaskRequest request, long seed) {
        HouseholdTasks g = new HouseholdTasks(world, seed);
        world.code = Codes.next(new SplittableRandom(Seeds.mix(seed, 0xD0DE)), "DONE", 6);
        int difficulty = request.difficulty() == 0 ? 1 + g.rnd.nextInt(4) : request.difficulty();
        g.sim = world.copy();
        g.run("help");
        String kind = Pick.firstPosed(KINDS.get(difficulty), g.rnd, g::pose, "household task of difficulty " + difficulty);
        if (g.draft.writes && !g.sim.reached()) throw new IllegalStateException("household script does not reach the goal: " + g.draft.query);
        return g.draft.build("household", request, kind, difficulty);
    }

    // ---------------------------------------------------------------- kinds

    /** Sets up a task of this kind; false (having changed nothing) when the house cannot pose it. */
    private boolean pose(String kind) {
        return switch (kind) {
            case "pick_and_place" -> place(false, false, false);
            case "container_place" -> place(true, true, false);
            case "count_in_container" -> countInContainer();
            case "transform_and_place" -> place(rnd.nextBoolean(), false, true);
            case "find_transform_place" -> findTransformPlace();
            case "find_location" -> findLocation();
            case "two_things" -> twoThings();
            default -> throw new IllegalStateException(kind);
        };
    }

    /**
     * Moves a thing to a receptacle in another room. {@code fromClosed}/{@code toClosed} ask for closed
     * containers at either end (relaxed when the house has no such pair); {@code transform} adds heating,
     * cooling, cleaning or washing on the way.
     */
    private boolean place(boolean fromClosed, boolean toClosed, boolean transform) {
        for (int pass = 0; pass < 2; pass++) {
            for (int t : things()) {
                Thing thing = w.thing(t);
                Receptacle from = w.receptacle(thing.start());
                if (pass == 0 && from.openable() != fromClosed) continue;
                int ability = transform ? ability(thing.kind()) : HouseholdNames.NONE;
                int appliance = ability == HouseholdNames.NONE ? -1 : applianceFor(ability, thing);
                if (transform && appliance < 0) continue;
                boolean strict = pass == 0;
                int target = pickTarget(r -> r.room() != from.room() && (!strict || r.openable() == toClosed) && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                setGoal(new int[]{t}, target, stateOf(ability));
                fetch(t);
                if (appliance >= 0) transform(t, ability, appliance);
                putInto(t, target);
                Receptacle to = w.receptacle(target);
                String colour = colour(thing);
                String where = ", which is " + from.prep() + " " + HouseholdCommands.the(from.name()) + " in the " + room(from) + ",";
                String toRoom = " in the " + room(to);
                draft.query = (appliance < 0 ? "Put" : cap(verbOf(ability))) + " the" + colour + " " + thing.kind().name() + where
                        + (appliance < 0 ? " " : " and put it ") + to.prep() + " " + HouseholdCommands.the(to.name()) + toRoom + ".";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                draft.detail("location", where, "where|which room|location|find|is it",
                        "It is " + from.prep() + " " + HouseholdCommands.the(from.name()) + " in the " + room(from) + ".", false);
                colourDetail(t, colour, from.index());
                targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    private boolean countInContainer() {
        for (Receptacle rec : Pick.preferring(w.map.receptacles(), rnd, r -> r.openable() && !inside(r).isEmpty(), 0.95)) {
            List<Integer> inside = inside(rec);
            // Count one kind (there or elsewhere in the house); the other things in the container are the near miss.
            Kind kind = inside.isEmpty() ? w.thing(rnd.nextInt(w.map.things().size())).kind() : w.thing(inside.get(rnd.nextInt(inside.size()))).kind();
            int n = 0;
            for (int t : inside) if (w.thing(t).kind() == kind) n++;
            goTo(rec.room());
            if (rec.openable()) run("open " + rec.name());
            String inRoom = " in the " + room(rec);
            draft.query = "How many " + kind.plural() + " are " + rec.prep() + " " + HouseholdCommands.the(rec.name()) + inRoom
                    + "? Reply with the number, and don't move anything.";
            draft.answer = "There " + (n == 1 ? "is 1 " + kind.name() : "are " + n + " " + kind.plural()) + " " + rec.prep() + " "
                    + HouseholdCommands.the(rec.name()) + ".";
            draft.must.add(Integer.toString(n));
            targetDetail(rec, inRoom);
            return true;
        }
        return false;
    }

    private List<Integer> inside(Receptacle rec) {
        List<Integer> out = new ArrayList<>();
        for (Thing t : w.map.things()) if (t.start() == rec.index()) out.add(t.index());
        return out;
    }

    private boolean findTransformPlace() {
        for (int pass = 0; pass < 2; pass++) {
            for (int t : things()) {
                Thing thing = w.thing(t);
                Receptacle from = w.receptacle(thing.start());
                if (pass == 0 && !from.openable()) continue;           // prefer things shut away in a container
                int ability = ability(thing.kind());
                int appliance = ability == HouseholdNames.NONE ? -1 : applianceFor(ability, thing);
                if (appliance < 0) continue;
                int target = pickTarget(r -> r.index() != from.index() && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                setGoal(new int[]{t}, target, stateOf(ability));
                search(t);
                transform(t, ability, appliance);
                putInto(t, target);
                Receptacle to = w.receptacle(target);
                String colour = colour(thing);
                String toRoom = " in the " + room(to);
                draft.query = cap(verbOf(ability)) + " the" + colour + " " + thing.kind().name() + " and put it " + to.prep() + " "
                        + HouseholdCommands.the(to.name()) + toRoom + ". I don't remember where the " + thing.kind().name() + " is.";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                colourDetail(t, colour, -1);
                targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    private boolean findLocation() {
        int t = things().getFirst();
        Thing thing = w.thing(t);
        Receptacle at = w.receptacle(thing.start());
        search(t);
        String colour = colour(thing);
        draft.query = "Where is the" + colour + " " + thing.kind().name() + "? Tell me the room and the piece of furniture where it is, "
                + "without moving anything.";
        draft.answer = "The " + thing.name() + " is " + at.prep() + " " + HouseholdCommands.the(at.name()) + " in the " + room(at) + ".";
        draft.must.add(room(at));
        draft.must.add(at.name());
        String said = Checks.normalize(draft.answer);
        for (Thing other : w.map.things()) {
            if (other == thing || other.kind() != thing.kind()) continue;
            Receptacle r = w.receptacle(other.start());
            for (String wrong : new String[]{room(r), r.name()}) {
                if (!said.contains(Checks.normalize(wrong)) && !draft.mustNot.contains(wrong)) draft.mustNot.add(wrong);
            }
        }
        colourDetail(t, colour, -1);
        return true;
    }

    private boolean twoThings() {
        List<Integer> order = things();
        for (int a : order) {
            for (int b : order) {
                Thing ta = w.thing(a);
                Thing tb = w.thing(b);
                if (a == b || ta.kind() == tb.kind() || colour(ta).equals(colour(tb))) continue;
                Receptacle fromA = w.receptacle(ta.start());
                Receptacle fromB = w.receptacle(tb.start());
                int target = pickTarget(r -> r.index() != fromA.index() && r.index() != fromB.index() && r.appliance() == HouseholdNames.NONE);
                if (target < 0) continue;
                setGoal(new int[]{a, b}, target, 0);
                fetch(a);
                putInto(a, target);
                fetch(b);
                putInto(b, target);
                Receptacle to = w.receptacle(target);
                String whereA = ", which is " + fromA.prep() + " " + HouseholdCommands.the(fromA.name()) + " in the " + room(fromA) + ",";
                String whereB = ", which is " + fromB.prep() + " " + HouseholdCommands.the(fromB.name()) + " in the " + room(fromB) + ",";
                String toRoom = " in the " + room(to);
                String colourA = colour(ta);
                draft.query = "Put the" + colourA + " " + ta.kind().name() + whereA + " and the " + tb.name() + whereB + " "
                        + to.prep() + " " + HouseholdCommands.the(to.name()) + toRoom + ".";
                draft.answer = "Done. Completion code: {" + draft.last() + ":/completion_code}.";
                draft.detail("location", whereB, "where|which room|location|find|is it",
                        "The " + tb.name() + " is " + fromB.prep() + " " + HouseholdCommands.the(fromB.name()) + " in the " + room(fromB) + ".", false);
                colourDetail(a, colourA, fromA.index());
                targetDetail(to, toRoom);
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- script pieces (rehearsed on the copy)

    private void run(String command) {
        Reply r = HouseholdCommands.execute(sim, Commands.normalize(command));
        if (r.failed()) throw new IllegalStateException("household script command '" + command + "' fails: " + r.text());
        draft.record(GoldPlan.Call.command(command), r.payload());
    }

    private void goTo(int room) {
        if (sim.room != room) run("go to " + w.map.rooms().get(room));
    }

    /** Goes to the thing's known place, opens its container if needed and takes it. */
    private void fetch(int t) {
        Receptacle from = w.receptacle(sim.loc[t]);
        goTo(from.room());
        if (from.openable() && !sim.open[from.index()]) run("open " + from.name());
        run("take " + w.thing(t).name() + " from " + from.name());
    }

    /** Searches the house in the order rooms are listed, opening closed containers, then takes the thing. */
    private void search(int t) {
        run("look");                                     // the hallway lists the rooms, in the order searched
        Receptacle at = w.receptacle(sim.loc[t]);
        List<Integer> order = new ArrayList<>();
        for (int r = 1; r < w.map.rooms().size(); r++) order.add(r);
        for (int r : order) {
            goTo(r);
            if (r != at.room()) {
                for (int rec : w.map.inRoom()[r]) if (w.receptacle(rec).openable() && !sim.open[rec]) run("open " + w.receptacle(rec).name());
                continue;
            }
            if (at.openable()) {
                for (int rec : w.map.inRoom()[r]) {
                    if (!w.receptacle(rec).openable() || sim.open[rec]) continue;
                    run("open " + w.receptacle(rec).name());
                    if (rec == at.index()) break;
                }
            }
            if (draft.writes) run("take " + w.thing(t).name() + " from " + at.name());
            return;
        }
    }

    private void transform(int t, int ability, int appliance) {
        Receptacle a = w.receptacle(appliance);
        goTo(a.room());
        // Washing is written with the verb help lists for it ("clean ... with washing machine"), so a
        // script is made only of commands an agent can read in help.
        String verb = ability == HouseholdNames.WASHES ? "clean" : verbOf(ability);
        run(verb + " " + w.thing(t).name() + " with " + a.name());
    }

    private void putInto(int t, int target) {
        Receptacle to = w.receptacle(target);
        goTo(to.room());
        if (to.openable() && !sim.open[to.index()]) run("open " + to.name());
        run("put " + w.thing(t).name() + " " + to.prep() + " " + to.name());
    }

    private void setGoal(int[] things, int target, int state) {
        Goal goal = new Goal(things, target, state);
        w.goal = goal;
        sim.goal = goal;
        draft.writes = true;
    }

    // ---------------------------------------------------------------- choices

    /** Things in a random order, those with a same-kind twin elsewhere first (most of the time), so colours matter. */
    private List<Integer> things() {
        List<Integer> all = new ArrayList<>();
        for (Thing t : w.map.things()) all.add(t.index());
        return Pick.preferring(all, rnd, this::twinned, 0.75);
    }

    private boolean twinned(int t) {
        for (Thing o : w.map.things()) if (o.index() != t && o.kind() == w.thing(t).kind()) return true;
        return false;
    }

    private int pickTarget(java.util.function.Predicate<Receptacle> filter) {
        List<Receptacle> pool = new ArrayList<>();
        for (Receptacle r : w.map.receptacles()) if (filter.test(r)) pool.add(r);
        return pool.isEmpty() ? -1 : pool.get(rnd.nextInt(pool.size())).index();
    }

    /** One transformation the thing allows, chosen at random; NONE if it allows none in this house. */
    private int ability(Kind k) {
        List<Integer> options = new ArrayList<>();
        if (k.heat()) options.add(HouseholdNames.HEATS);
        if (k.cool()) options.add(HouseholdNames.COOLS);
        if (k.clean()) options.add(HouseholdNames.CLEANS);
        if (k.wash() && hasAppliance(HouseholdNames.WASHES)) options.add(HouseholdNames.WASHES);
        return options.isEmpty() ? HouseholdNames.NONE : options.get(rnd.nextInt(options.size()));
    }

    private boolean hasAppliance(int does) {
        for (Receptacle r : w.map.receptacles()) if (r.appliance() == does) return true;
        return false;
    }

    /** An appliance that does it, preferring one in the thing's room. */
    private int applianceFor(int ability, Thing thing) {
        int any = -1;
        for (Receptacle r : w.map.receptacles()) {
            if (r.appliance() != ability) continue;
            if (r.room() == w.receptacle(thing.start()).room()) return r.index();
            if (any < 0) any = r.index();
        }
        return any;
    }

    private static int stateOf(int ability) {
        return switch (ability) {
            case HouseholdNames.HEATS -> HouseholdWorld.HOT;
            case HouseholdNames.COOLS -> HouseholdWorld.COLD;
            case HouseholdNames.CLEANS, HouseholdNames.WASHES -> HouseholdWorld.CLEAN;
            default -> 0;
        };
    }

    private static String verbOf(int ability) {
        return switch (ability) {
            case HouseholdNames.HEATS -> "heat";
            case HouseholdNames.COOLS -> "cool";
            case HouseholdNames.WASHES -> "wash";
            default -> "clean";
        };
    }

    // ---------------------------------------------------------------- details

    /** " red": removing it leaves "the mug", ambiguous when another mug could be meant (at the same place, or anywhere). */
    private void colourDetail(int t, String span, int sameReceptacle) {
        Thing thing = w.thing(t);
        boolean ambiguous = false;
        for (Thing o : w.map.things()) {
            if (o != thing && o.kind() == thing.kind() && (sameReceptacle < 0 || o.start() == sameReceptacle)) ambiguous = true;
        }
        draft.detail("colour", span, "colour|color|which one|which " + thing.kind().name(), "The" + span + " one.", ambiguous);
    }

    /** " in the bedroom": removing it is ambiguous when furniture of that name stands in several rooms. */
    private void targetDetail(Receptacle to, String span) {
        int same = 0;
        for (Receptacle r : w.map.receptacles()) if (r.name().equals(to.name())) same++;
        draft.detail("room", span, "room|where|which room|which one", "The " + to.name() + span + ".", same > 1);
    }

    private static String colour(Thing t) {
        return " " + t.name().substring(0, t.name().length() - t.kind().name().length() - 1);
    }

    private String room(Receptacle r) { return w.map.rooms().get(r.room()); }

    private static String cap(String s) { return Character.toUpperCase(s.charAt(0)) + s.substring(1); }

}
