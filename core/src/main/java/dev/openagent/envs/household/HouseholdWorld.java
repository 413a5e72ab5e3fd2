package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdNames.Furniture;
import dev.openagent.envs.household.HouseholdNames.Kind;
import dev.openagent.envs.household.HouseholdNames.RoomTemplate;
import dev.openagent.envs.kit.Layouts;
import dev.openagent.envs.kit.Names;
import dev.openagent.sandbox.Split;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The house of one episode: a cached, immutable {@link Layout} of rooms, furniture and things in
 * their starting places; plus this episode's state: where the agent is, what it holds, where each
 * thing is, which things were heated, cooled or cleaned, which containers are open, and the goal.
 */
public final class HouseholdWorld {
    static final int HOT = 1;
    static final int COLD = 2;
    static final int CLEAN = 4;
    /** Room 0 of every house: where episodes start; every room opens onto it. */
    static final String HALLWAY = "hallway";

    /** A piece of furniture or an appliance; {@code surface} means things go "on" it, otherwise "in". */
    public record Receptacle(String name, String base, int room, boolean openable, boolean surface, int appliance, int index) {
        String prep() { return surface ? "on" : "in"; }
    }

    public record Thing(String name, Kind kind, int start, boolean dirty, int index) {}

    public record Layout(long seed, Split split, List<String> rooms, List<Receptacle> receptacles, List<Thing> things, int[][] inRoom) {}

    /** What a task asks for: these things in the target receptacle with exactly these state bits. */
    record Goal(int[] things, int target, int state) {}

    /** Layouts cached per split (tests build worlds on a chosen one). */
    static final Layouts<Layout> LAYOUTS = new Layouts<>(512, 0x40053L, HouseholdWorld::generate);


    final Layout map;
    int room;
    int held = -1;
    final int[] loc;
    final byte[] state;
    final boolean[] open;
    Goal goal;
    String code;

    HouseholdWorld(Layout map) {
        this.map = map;
        this.loc = new int[map.things().size()];
        for (Thing t : map.things()) loc[t.index()] = t.start();
        this.state = new byte[map.things().size()];
        this.open = new boolean[map.receptacles().size()];
    }

    private HouseholdWorld(HouseholdWorld other) {
        this.map = other.map;
        this.room = other.room;
        this.held = other.held;
        this.loc = other.loc.clone();
        this.state = other.state.clone();
        this.open = other.open.clone();
        this.goal = other.goal;
        this.code = other.code;
    }

    public static HouseholdWorld of(Split split, long episodeSeed) {
        return new HouseholdWorld(LAYOUTS.of(split, episodeSeed));
    }

    /** An independent copy of this episode's state (the task generator rehearses its script on one). */
    HouseholdWorld copy() { return new HouseholdWorld(this); }

    public Layout layout() { return map; }

    Receptacle receptacle(int i) { return map.receptacles().get(i); }

    /** The name of the room the receptacle stands in. */
    String roomName(Receptacle r) { return map.rooms().get(r.room()); }

    Thing thing(int i) { return map.things().get(i); }

    /** Where a thing lies visibly or not; -1 while held. */
    int roomOf(int thing) { return loc[thing] < 0 ? room : receptacle(loc[thing]).room(); }

    boolean visible(int thing) {
        if (loc[thing] < 0) return true;
        Receptacle r = receptacle(loc[thing]);
        return r.room() == room && (!r.openable() || open[r.index()]);
    }

    boolean reached() {
        if (goal == null) return false;
        for (int t : goal.things()) if (loc[t] != goal.target() || state[t] != goal.state()) return false;
        return true;
    }

    /** Things that differ from their starting place and state, other than the goal's things. */
    List<Thing> disturbed() {
        List<Thing> out = new ArrayList<>();
        for (Thing t : map.things()) {
            if (goal != null && contains(goal.things(), t.index())) continue;
            if (loc[t.index()] != t.start() || state[t.index()] != 0) out.add(t);
        }
        return out;
    }

    static boolean contains(int[] array, int value) {
        for (int v : array) if (v == value) return true;
        return false;
    }

    // ---------------------------------------------------------------- generation

    static Layout generate(Split split, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        List<RoomTemplate> templates = new ArrayList<>(HouseholdNames.CORE_ROOMS);
        templates.addAll(Names.distinct(HouseholdNames.OPTIONAL_ROOMS, 2 + rnd.nextInt(2), rnd));
        List<RoomTemplate> order = Names.distinct(templates, templates.size(), rnd);
        List<String> rooms = new ArrayList<>();
        rooms.add(HALLWAY);
        List<Receptacle> receptacles = new ArrayList<>();
        List<List<Integer>> perRoom = new ArrayList<>();
        perRoom.add(List.of());
        for (RoomTemplate t : order) {
            int room = rooms.size();
            rooms.add(t.name());
            List<Integer> here = new ArrayList<>();
            for (int f = 0; f < t.furniture().size(); f++) {
                Furniture piece = t.furniture().get(f);
                int copies = t.copies().get(f) + (t.copies().get(f) > 1 && rnd.nextBoolean() ? 1 : 0);
                for (int c = 1; c <= copies; c++) {
                    String name = copies == 1 ? piece.name() : piece.name() + " " + c;
                    here.add(receptacles.size());
                    receptacles.add(new Receptacle(name, piece.name(), room, piece.openable(), piece.surface(), piece.appliance(), receptacles.size()));
                }
            }
            perRoom.add(List.copyOf(here));
        }
        int[][] inRoom = new int[perRoom.size()][];
        for (int r = 0; r < perRoom.size(); r++) inRoom[r] = perRoom.get(r).stream().mapToInt(Integer::intValue).toArray();

        // Things: kinds and colours of this split; kinds repeat in other colours so a name's colour matters.
        List<Kind> kinds = Names.half(HouseholdNames.KINDS, split);
        List<String> colors = Names.half(HouseholdNames.COLORS, split);
        List<Thing> things = new ArrayList<>();
        Set<String> names = new HashSet<>();
        int count = 18 + rnd.nextInt(7);
        while (things.size() < count) {
            Kind kind = !things.isEmpty() && rnd.nextDouble() < 0.4 ? things.get(rnd.nextInt(things.size())).kind() : Names.any(kinds, rnd);
            String name = Names.any(colors, rnd) + " " + kind.name();
            if (!names.add(name)) continue;
            List<Receptacle> homes = new ArrayList<>();
            for (Receptacle r : receptacles) if (kind.homes().contains(r.base())) homes.add(r);
            if (homes.isEmpty()) for (Receptacle r : receptacles) if (r.appliance() == HouseholdNames.NONE) homes.add(r);
            Receptacle home = Names.any(homes, rnd);
            boolean dirty = kind.clean() && (home.base().equals("sink") || rnd.nextDouble() < 0.2);
            things.add(new Thing(name, kind, home.index(), dirty, things.size()));
        }
        return new Layout(seed, split, List.copyOf(rooms), List.copyOf(receptacles), List.copyOf(things), inRoom);
    }

    @Override
    public String toString() {
        return "HouseholdWorld[room=" + map.rooms().get(room) + ", held=" + held + ", loc=" + Arrays.toString(loc) + "]";
    }
}
