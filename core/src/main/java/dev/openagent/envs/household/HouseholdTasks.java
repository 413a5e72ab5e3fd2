package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdNames.Kind;
import dev.openagent.envs.household.HouseholdWorld.Goal;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.envs.kit.TaskGenerator;
import dev.openagent.envs.kit.TaskKinds;
import dev.openagent.envs.kit.Codes;
import dev.openagent.envs.kit.Pick;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.Commands;
import dev.openagent.domain.Reply;
import dev.openagent.domain.TaskKind;

import java.util.ArrayList;
import java.util.List;
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
 * The kinds are declared here; their families ({@link HouseholdMoves}, {@link HouseholdQuestions}) pose
 * them with the script pieces, choices and details this generator keeps for both.
 */
final class HouseholdTasks extends TaskGenerator<HouseholdWorld> {
    /**
     * The kinds of task, by difficulty. Requests that name a thing can ask for one the house does not have;
     * requests that name a place can name a room or furniture the house does not have, and can describe the
     * place's room by a landmark in it instead.
     */
    static final TaskKinds<HouseholdWorld, HouseholdTasks> KINDS = new TaskKinds<>(
            TaskKind.<HouseholdWorld, HouseholdTasks>of("pick_and_place", 1, g -> g.moves.place(false, false, false))
                    .impossibleBy(HouseholdRestatements::missingThing, HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark),
            TaskKind.<HouseholdWorld, HouseholdTasks>of("container_place", 2, g -> g.moves.place(true, true, false))
                    .impossibleBy(HouseholdRestatements::missingThing, HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark),
            TaskKind.<HouseholdWorld, HouseholdTasks>of("count_in_container", 2, g -> g.questions.countInContainer())
                    .impossibleBy(HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark),
            TaskKind.<HouseholdWorld, HouseholdTasks>of("transform_and_place", 3, g -> g.moves.place(g.rnd.nextBoolean(), false, true))
                    .impossibleBy(HouseholdRestatements::missingThing, HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark),
            TaskKind.<HouseholdWorld, HouseholdTasks>of("find_transform_place", 4, g -> g.moves.findTransformPlace())
                    .impossibleBy(HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark),
            // A question about where a thing is names no place to restate.
            TaskKind.<HouseholdWorld, HouseholdTasks>of("find_location", 4, g -> g.questions.findLocation())
                    .impossibleBy(HouseholdRestatements::missingThing),
            TaskKind.<HouseholdWorld, HouseholdTasks>of("two_things", 4, g -> g.moves.twoThings())
                    .impossibleBy(HouseholdRestatements::missingThing, HouseholdRestatements::missingRoom, HouseholdRestatements::missingFurniture)
                    .longerBy(HouseholdRestatements::roomByLandmark));

    private HouseholdWorld sim;
    private final HouseholdMoves moves;
    private final HouseholdQuestions questions;

    private HouseholdTasks(HouseholdWorld w, long seed) {
        super(w, seed, 0x40A5E, List.of());
        this.moves = new HouseholdMoves(this);
        this.questions = new HouseholdQuestions(this);
    }

    static Task generate(HouseholdWorld world, TaskRequest request, long seed) {
        HouseholdTasks g = new HouseholdTasks(world, seed);
        world.code = Codes.next(new SplittableRandom(Seeds.mix(seed, 0xD0DE)), "DONE", 6);
        int difficulty = KINDS.level(request, g.rnd);
        g.sim = world.copy();
        g.run("help");
        TaskKind<HouseholdWorld, HouseholdTasks> kind = KINDS.pose(difficulty, g, g.rnd, "household");
        if (g.draft.writes && !g.sim.reached()) throw new IllegalStateException("household script does not reach the goal: " + g.draft.query);
        return g.draft.build("household", request, kind.name(), difficulty);
    }


    // ---------------------------------------------------------------- script pieces (rehearsed on the copy)

    void run(String command) {
        Reply r = HouseholdCommands.execute(sim, Commands.normalize(command));
        if (r.failed()) throw new IllegalStateException("household script command '" + command + "' fails: " + r.text());
        draft.record(GoldPlan.Call.command(command), r.payload());
    }

    void goTo(int room) {
        if (sim.room != room) run("go to " + w.map.rooms().get(room));
    }

    /** Goes to the thing's known place, opens its container if needed and takes it. */
    void fetch(int t) {
        Receptacle from = w.receptacle(sim.loc[t]);
        goTo(from.room());
        if (from.openable() && !sim.open[from.index()]) run("open " + from.name());
        run("take " + w.thing(t).name() + " from " + from.name());
    }

    /** Searches the house in the order rooms are listed, opening closed containers, then takes the thing. */
    void search(int t) {
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

    void transform(int t, int ability, int appliance) {
        Receptacle a = w.receptacle(appliance);
        goTo(a.room());
        // Washing is written with the verb help lists for it ("clean ... with washing machine"), so a
        // script is made only of commands an agent can read in help.
        String verb = ability == HouseholdNames.WASHES ? "clean" : verbOf(ability);
        run(verb + " " + w.thing(t).name() + " with " + a.name());
    }

    void putInto(int t, int target) {
        Receptacle to = w.receptacle(target);
        goTo(to.room());
        if (to.openable() && !sim.open[to.index()]) run("open " + to.name());
        run("put " + w.thing(t).name() + " " + to.prep() + " " + to.name());
    }

    void setGoal(int[] things, int target, int state) {
        Goal goal = new Goal(things, target, state);
        w.goal = goal;
        sim.goal = goal;
        draft.writes = true;
    }

    // ---------------------------------------------------------------- choices

    /** Things in a random order, those with a same-kind twin elsewhere first (most of the time), so colours matter. */
    List<Integer> things() {
        List<Integer> all = new ArrayList<>();
        for (Thing t : w.map.things()) all.add(t.index());
        return Pick.preferring(all, rnd, this::twinned, 0.75);
    }

    private boolean twinned(int t) {
        for (Thing o : w.map.things()) if (o.index() != t && o.kind() == w.thing(t).kind()) return true;
        return false;
    }

    int pickTarget(java.util.function.Predicate<Receptacle> filter) {
        List<Receptacle> pool = new ArrayList<>();
        for (Receptacle r : w.map.receptacles()) if (filter.test(r)) pool.add(r);
        return pool.isEmpty() ? -1 : pool.get(rnd.nextInt(pool.size())).index();
    }

    /** One transformation the thing allows, chosen at random; NONE if it allows none in this house. */
    int ability(Kind k) {
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
    int applianceFor(int ability, Thing thing) {
        int any = -1;
        for (Receptacle r : w.map.receptacles()) {
            if (r.appliance() != ability) continue;
            if (r.room() == w.receptacle(thing.start()).room()) return r.index();
            if (any < 0) any = r.index();
        }
        return any;
    }


    static String verbOf(int ability) {
        return switch (ability) {
            case HouseholdNames.HEATS -> "heat";
            case HouseholdNames.COOLS -> "cool";
            case HouseholdNames.WASHES -> "wash";
            default -> "clean";
        };
    }

    // ---------------------------------------------------------------- details

    /** " red": removing it leaves "the mug", ambiguous when another mug could be meant (at the same place, or anywhere). */
    void colourDetail(int t, String span, int sameReceptacle) {
        Thing thing = w.thing(t);
        boolean ambiguous = false;
        for (Thing o : w.map.things()) {
            if (o != thing && o.kind() == thing.kind() && (sameReceptacle < 0 || o.start() == sameReceptacle)) ambiguous = true;
        }
        draft.detail("colour", span, "colour|color|which one|which " + thing.kind().name(), "The" + span + " one.", ambiguous);
    }

    /** " in the bedroom": removing it is ambiguous when furniture of that name stands in several rooms. */
    void targetDetail(Receptacle to, String span) {
        int same = 0;
        for (Receptacle r : w.map.receptacles()) if (r.name().equals(to.name())) same++;
        draft.detail("room", span, "room|where|which room|which one", "The " + to.name() + span + ".", same > 1);
    }

    static String colour(Thing t) {
        return " " + t.name().substring(0, t.name().length() - t.kind().name().length() - 1);
    }

    String room(Receptacle r) { return w.roomName(r); }

}
