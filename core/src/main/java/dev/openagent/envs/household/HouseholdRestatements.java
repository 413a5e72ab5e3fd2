package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdNames.Furniture;
import dev.openagent.envs.household.HouseholdNames.RoomTemplate;
import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import dev.openagent.envs.kit.Names;
import dev.openagent.envs.kit.Pick;
import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * How a household request is made impossible (a thing the house does not have, a room it does not have,
 * furniture a room does not have) and how its place is described through a landmark instead of its room:
 * the ways and the restatement that {@link HouseholdTasks#KINDS} declares on each kind. Plans here are
 * command scripts ({@link GoldPlan.Call#command}).
 */
final class HouseholdRestatements {
    private HouseholdRestatements() {}

    /** Rooms no house has: the natural "this house has no ..." of a request. */
    private static final List<String> OTHER_ROOMS = List.of("attic", "basement", "guest room", "pantry", "balcony", "nursery");

    /** The place a request names: a receptacle, said as "{@code phrase}" ("on the shelf in the bedroom") in the query. */
    private record Place(Receptacle receptacle, String phrase, String roomSpan) {}

    // ---------------------------------------------------------------- impossible

    /**
     * The thing asked for does not exist: another colour that no thing of its kind has in this house.
     * Where the request says where it is, the probe looks there; otherwise it walks through every room.
     */
    static Optional<Task> missingThing(Task task, HouseholdWorld w, SplittableRandom rnd) {
        Thing t = namedThing(task, w);
        if (t == null) return Optional.empty();
        String colour = t.name().substring(0, t.name().length() - t.kind().name().length() - 1);
        // Another colour of its kind that no thing has; failing that, a kind the house has none of.
        List<String> free = new ArrayList<>();
        List<String> colours = Names.half(HouseholdNames.COLORS, w.map.split());
        for (String c : colours) {
            String name = c + " " + t.kind().name();
            if (w.map.things().stream().noneMatch(x -> x.name().equals(name)) && !task.query().contains(c)) free.add(name);
        }
        if (free.isEmpty()) {
            for (HouseholdNames.Kind k : Names.half(HouseholdNames.KINDS, w.map.split())) {
                if (w.map.things().stream().noneMatch(x -> x.kind() == k)) free.add(colour + " " + k.name());
            }
        }
        if (free.isEmpty()) return Optional.empty();
        String fake = free.get(rnd.nextInt(free.size()));
        String other = fake.substring(0, fake.lastIndexOf(' '));
        String query = task.query().replace("the " + t.name(), "the " + fake);
        Receptacle from = w.receptacle(t.start());
        String stated = from.prep() + " " + HouseholdCommands.the(from.name()) + " in the " + w.roomName(from);
        List<GoldPlan.Call> probes = new ArrayList<>();
        String reason;
        if (task.query().contains(stated)) {
            probes.add(GoldPlan.Call.command("go to " + w.roomName(from)));
            if (from.openable()) probes.add(GoldPlan.Call.command("open " + from.name()));
            reason = "There is no " + fake + " " + stated + ", nor anywhere else in this house.";
        } else {
            probes.add(GoldPlan.Call.command("look"));
            for (int r = 1; r < w.map.rooms().size(); r++) probes.add(GoldPlan.Call.command("go to " + w.map.rooms().get(r)));
            reason = "There is no " + fake + " in this house.";
        }
        List<Detail> details = task.details().stream().map(d -> d.key().equals("colour")
                ? new Detail(d.key(), d.span().replace(colour, other), d.keywords(), d.reply().replace(colour, other), false) : d).toList();
        return Optional.of(task.unsolvable(query, probes, reason, details));
    }

    /** The place asked for is in a room this house does not have. */
    static Optional<Task> missingRoom(Task task, HouseholdWorld w, SplittableRandom rnd) {
        Place p = namedPlace(task, w);
        if (p == null) return Optional.empty();
        List<String> rooms = new ArrayList<>(OTHER_ROOMS);
        for (RoomTemplate t : HouseholdNames.OPTIONAL_ROOMS) if (!w.map.rooms().contains(t.name())) rooms.add(t.name());
        String room = rooms.get(rnd.nextInt(rooms.size()));
        String span = " in the " + room;
        String phrase = p.phrase().substring(0, p.phrase().length() - p.roomSpan().length()) + span;
        return Optional.of(task.unsolvable(replaceLast(task.query(), p.phrase(), phrase), List.of(GoldPlan.Call.command("go to " + room)),
                "This house has no " + room + ".", roomDetail(task, p, span, phrase)));
    }

    /** The place asked for is furniture its room does not have. */
    static Optional<Task> missingFurniture(Task task, HouseholdWorld w, SplittableRandom rnd) {
        Place p = namedPlace(task, w);
        if (p == null) return Optional.empty();
        int room = p.receptacle().room();
        Set<String> here = new LinkedHashSet<>();
        for (int r : w.map.inRoom()[room]) here.add(w.receptacle(r).base());
        List<Furniture> absent = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (RoomTemplate t : allRooms()) {
            for (Furniture f : t.furniture()) if (f.appliance() == HouseholdNames.NONE && !here.contains(f.name()) && seen.add(f.name())) absent.add(f);
        }
        if (absent.isEmpty()) return Optional.empty();
        Furniture f = absent.get(rnd.nextInt(absent.size()));
        String phrase = (f.surface() ? "on" : "in") + " the " + f.name() + p.roomSpan();
        String roomName = w.map.rooms().get(room);
        return Optional.of(task.unsolvable(replaceLast(task.query(), p.phrase(), phrase),
                List.of(GoldPlan.Call.command("go to " + roomName)),
                "There is no " + f.name() + " in the " + roomName + ".", roomDetail(task, p, p.roomSpan(), phrase)));
    }

    private static List<Detail> roomDetail(Task task, Place p, String span, String phrase) {
        return task.details().stream().map(d -> d.key().equals("room") && d.span().equals(p.roomSpan())
                ? new Detail(d.key(), span, d.keywords(), "The " + phrase.substring(phrase.indexOf("the ") + 4) + ".", false) : d).toList();
    }

    // ---------------------------------------------------------------- longer chain

    /**
     * The room of the place asked for becomes "the room where the L is", L a landmark in plain sight
     * there; from severity 2 the room where the thing is, when the request says it, too. The extra hops
     * are the search: a look from the hallway, each room in the listed order until the landmark is in
     * sight, and a closer look at it, which says its room. Nothing moves and nothing is opened, so the
     * task's own commands run as before.
     */
    static Optional<Chain> roomByLandmark(Task task, HouseholdWorld w, SplittableRandom rnd, int extra) {
        Place p = namedPlace(task, w);
        if (p == null) return Optional.empty();
        Set<Integer> named = new LinkedHashSet<>();
        for (Thing t : w.map.things()) if (task.query().contains(t.name())) named.add(t.index());
        Thing target = landmark(w, p.receptacle().room(), named, rnd);
        if (target == null) return Optional.empty();
        named.add(target.index());
        String query = replaceLast(task.query(), p.phrase(), p.phrase().substring(0, p.phrase().length() - p.roomSpan().length())
                + " in the room where the " + target.name() + " is");
        List<GoldPlan.Call> hops = new ArrayList<>();
        Thing held = namedThing(task, w);
        if (extra >= 2 && held != null) {
            Receptacle from = w.receptacle(held.start());
            String where = " in the " + w.roomName(from) + ",";
            String stated = ", which is " + from.prep() + " " + HouseholdCommands.the(from.name()) + where;
            Thing second = landmark(w, from.room(), named, rnd);
            if (second != null && query.indexOf(stated) >= 0 && query.indexOf(stated) == query.lastIndexOf(stated)) {
                query = query.replace(stated, stated.substring(0, stated.length() - where.length()) + " in the room where the " + second.name() + " is,");
                hops.addAll(search(w, second));
            }
        }
        hops.addAll(search(w, target));
        String q = query;
        Set<String> described = hops.size() > search(w, target).size() ? Set.of("room", "location") : Set.of("room");
        List<Detail> details = task.details().stream().filter(d -> !described.contains(d.key()) && q.contains(d.span())).toList();
        return Optional.of(new Chain(q, hops, "/room", w.roomName(p.receptacle()), details));
    }

    /** A thing in plain sight (on or in furniture that does not close) in the room, not one the request names. */
    private static Thing landmark(HouseholdWorld w, int room, Set<Integer> exclude, SplittableRandom rnd) {
        for (Thing t : Pick.shuffled(w.map.things(), rnd)) {
            Receptacle r = w.receptacle(t.start());
            if (r.room() == room && !r.openable() && !exclude.contains(t.index())) return t;
        }
        return null;
    }

    /** Looking for a thing in plain sight: the rooms in the listed order until it is in sight, then a closer look. */
    private static List<GoldPlan.Call> search(HouseholdWorld w, Thing t) {
        List<GoldPlan.Call> out = new ArrayList<>();
        out.add(GoldPlan.Call.command("look"));
        int room = w.receptacle(t.start()).room();
        for (int r = 1; r <= room; r++) out.add(GoldPlan.Call.command("go to " + w.map.rooms().get(r)));
        out.add(GoldPlan.Call.command("examine " + t.name()));
        return out;
    }

    // ---------------------------------------------------------------- what a request names

    /** The thing the request is about: the one whose colour the request's "colour" detail states. */
    private static Thing namedThing(Task task, HouseholdWorld w) {
        Detail colour = task.details().stream().filter(d -> d.key().equals("colour")).findFirst().orElse(null);
        if (colour == null) return null;
        for (Thing t : w.map.things()) {
            if (t.name().startsWith(colour.span().strip() + " ") && task.query().contains("the " + t.name())) return t;
        }
        return null;
    }

    /** The place the request puts things (or counts them): the receptacle its "room" detail belongs to. */
    private static Place namedPlace(Task task, HouseholdWorld w) {
        Detail room = task.details().stream().filter(d -> d.key().equals("room")).findFirst().orElse(null);
        if (room == null || !room.span().startsWith(" in the ")) return null;
        int index = w.map.rooms().indexOf(room.span().substring(" in the ".length()));
        if (index < 0) return null;
        for (int r : w.map.inRoom()[index]) {
            Receptacle rec = w.receptacle(r);
            String phrase = rec.prep() + " " + HouseholdCommands.the(rec.name()) + room.span();
            int at = task.query().lastIndexOf(phrase);
            if (at >= 0 && (at + phrase.length() == task.query().length() || !Character.isLetterOrDigit(task.query().charAt(at + phrase.length())))) {
                return new Place(rec, phrase, room.span());
            }
        }
        return null;
    }

    private static String replaceLast(String text, String from, String to) {
        int at = text.lastIndexOf(from);
        return at < 0 ? text : text.substring(0, at) + to + text.substring(at + from.length());
    }

    private static List<RoomTemplate> allRooms() {
        List<RoomTemplate> all = new ArrayList<>(HouseholdNames.CORE_ROOMS);
        all.addAll(HouseholdNames.OPTIONAL_ROOMS);
        return all;
    }
}
