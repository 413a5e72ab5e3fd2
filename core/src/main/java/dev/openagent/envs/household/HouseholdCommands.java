package dev.openagent.envs.household;

import dev.openagent.envs.household.HouseholdWorld.Receptacle;
import dev.openagent.envs.household.HouseholdWorld.Thing;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Commands;
import dev.openagent.domain.Reply;

import java.util.List;

/**
 * The household's command interpreter. Every command is a verb from the help text followed by
 * names exactly as observations print them ("take red mug from countertop"); furniture names are
 * resolved in the current room, thing names among what is visible there or held. Nothing here
 * throws on bad input: every failure is a {@link Reply} error in plain words.
 */
final class HouseholdCommands {
    private HouseholdCommands() {}

    static final List<String> VERBS = List.of("look", "inventory", "go to", "open", "close", "take", "put", "heat", "cool",
            "clean", "examine", "help");

    static final String HELP = """
            Valid commands (one per turn; write names exactly as you see them):
              look                              describe the room you are in
              inventory                         say what you are holding
              go to <room>                      walk to another room
              open <furniture>                  open a closed container (fridge, cabinet, drawer...)
              close <furniture>                 close it again
              take <thing> from <furniture>     pick a thing up (you can hold one thing at a time)
              put <thing> in <furniture>        put the thing you hold in or on something (also: 'put <thing> on <furniture>')
              heat <thing> with <appliance>     heat the thing you hold, e.g. with a microwave
              cool <thing> with <appliance>     cool the thing you hold, e.g. with a fridge or freezer
              clean <thing> with <appliance>    clean the thing you hold with a sink, or wash fabric with a washing machine
              examine <thing or furniture>      look closely at something here
              help                              show this list
            Example: take red mug from countertop""";

    static Reply execute(HouseholdWorld w, String command) {
        int space = command.indexOf(' ');
        String verb = space < 0 ? command : command.substring(0, space);
        String rest = space < 0 ? "" : command.substring(space + 1);
        return switch (verb) {
            case "help" -> Reply.ok(HELP);
            case "look", "l" -> rest.isEmpty() || rest.equals("around") ? Reply.ok(describe(w)) : examine(w, rest);
            case "inventory", "i", "inv" -> Reply.ok(w.held < 0 ? "You are not holding anything." : "You are holding the " + w.thing(w.held).name() + tags(w, w.held) + ".");
            case "go", "walk", "move", "enter" -> go(w, stripWord(rest, "to"));
            case "open" -> openClose(w, rest, true);
            case "close", "shut" -> openClose(w, rest, false);
            case "take", "get", "grab" -> take(w, rest);
            case "pick" -> take(w, stripWord(rest, "up"));
            case "put", "place" -> put(w, rest);
            case "heat", "warm" -> transform(w, "heat", rest, HouseholdNames.HEATS);
            case "cool", "chill" -> transform(w, "cool", rest, HouseholdNames.COOLS);
            case "clean", "wash", "rinse" -> transform(w, "clean", rest, HouseholdNames.CLEANS);
            case "examine", "x", "inspect", "check" -> rest.isEmpty() ? Reply.malformed("Examine what? Say 'examine <thing or furniture>'.") : examine(w, rest);
            default -> Reply.unknown("I don't understand '" + abbreviate(command) + "'. Type 'help' for the list of commands.");
        };
    }

    // ---------------------------------------------------------------- verbs

    private static Reply go(HouseholdWorld w, String where) {
        if (where.isEmpty()) return Reply.malformed("Go where? Say 'go to <room>'.");
        int room = w.map.rooms().indexOf(where);
        if (room < 0) return Reply.error("There is no room called '" + abbreviate(where) + "' in this house. Rooms: " + String.join(", ", w.map.rooms()) + ".");
        if (room == w.room) return Reply.ok("You are already in the " + where + ". " + describe(w));
        w.room = room;
        return Reply.ok(describe(w));
    }

    private static Reply openClose(HouseholdWorld w, String what, boolean opening) {
        String verb = opening ? "open" : "close";
        if (what.isEmpty()) return Reply.malformed(cap(verb) + " what? Say '" + verb + " <furniture>'.");
        Object found = receptacle(w, what);
        if (found instanceof Reply r) return r;
        Receptacle rec = (Receptacle) found;
        if (!rec.openable()) return Reply.error(cap(the(rec.name())) + " cannot be " + (opening ? "opened" : "closed") + ".");
        if (w.open[rec.index()] == opening) return Reply.error(cap(the(rec.name())) + " is already " + (opening ? "open" : "closed") + ".");
        w.open[rec.index()] = opening;
        if (!opening) return Reply.ok("You close " + the(rec.name()) + ".");
        return Reply.ok("You open " + the(rec.name()) + ". " + contents(w, rec));
    }

    private static Reply take(HouseholdWorld w, String rest) {
        if (rest.isEmpty()) return Reply.malformed("Take what? Say 'take <thing> from <furniture>'.");
        String[] parts = Commands.splitAt(rest, "from");
        String what = parts == null ? rest : parts[0];
        Object found = thing(w, what);
        if (found instanceof Reply r) return r;
        int t = (Integer) found;
        if (w.held == t) return Reply.error("You are already holding the " + w.thing(t).name() + ".");
        if (parts != null) {
            Object from = receptacle(w, parts[1]);
            if (from instanceof Reply r) return r;
            Receptacle rec = (Receptacle) from;
            if (w.loc[t] != rec.index()) return Reply.error("The " + w.thing(t).name() + " is not " + rec.prep() + " " + the(rec.name()) + ".");
        }
        if (w.held >= 0) {
            return Reply.error("Your hands are full: you are holding the " + w.thing(w.held).name() + ". Put it somewhere first.");
        }
        Receptacle rec = w.receptacle(w.loc[t]);
        w.loc[t] = -1;
        w.held = t;
        return Reply.ok("You take the " + w.thing(t).name() + " from " + the(rec.name()) + ".");
    }

    private static Reply put(HouseholdWorld w, String rest) {
        if (rest.isEmpty()) return Reply.malformed("Put what where? Say 'put <thing> in <furniture>'.");
        String[] parts = null;
        for (String prep : new String[]{"in", "on", "into", "onto", "inside"}) {
            String[] p = Commands.splitAt(rest, prep);
            if (p != null && (parts == null || p[0].length() > parts[0].length())) parts = p;
        }
        if (parts == null) return Reply.malformed("Put it where? Say 'put <thing> in <furniture>' or 'put <thing> on <furniture>'.");
        Object found = thing(w, parts[0]);
        if (found instanceof Reply r) return r;
        int t = (Integer) found;
        if (w.held != t) return Reply.error("You are not holding the " + w.thing(t).name() + ". Take it first.");
        Object to = receptacle(w, parts[1]);
        if (to instanceof Reply r) return r;
        Receptacle rec = (Receptacle) to;
        if (rec.openable() && !w.open[rec.index()]) return Reply.error(cap(the(rec.name())) + " is closed. Open it first.");
        w.loc[t] = rec.index();
        w.held = -1;
        return done(w, "You put the " + w.thing(t).name() + " " + rec.prep() + " " + the(rec.name()) + ".");
    }

    private static Reply transform(HouseholdWorld w, String verb, String rest, int ability) {
        String[] parts = Commands.splitAt(rest, "with");
        if (parts == null) parts = Commands.splitAt(rest, "in");
        if (parts == null) parts = Commands.splitAt(rest, "using");
        if (rest.isEmpty() || parts == null) return Reply.malformed(cap(verb) + " it with what? Say '" + verb + " <thing> with <appliance>'.");
        Object found = thing(w, parts[0]);
        if (found instanceof Reply r) return r;
        int t = (Integer) found;
        Thing thing = w.thing(t);
        if (w.held != t) return Reply.error("You need to hold the " + thing.name() + " to " + verb + " it. Take it first.");
        Object with = receptacle(w, parts[1]);
        if (with instanceof Reply r) return r;
        Receptacle rec = (Receptacle) with;
        int does = rec.appliance();
        boolean washing = ability == HouseholdNames.CLEANS && does == HouseholdNames.WASHES;
        if (does != ability && !washing) return Reply.error("You cannot " + verb + " things with " + the(rec.name()) + ".");
        boolean can = switch (verb) {
            case "heat" -> thing.kind().heat();
            case "cool" -> thing.kind().cool();
            default -> washing ? thing.kind().wash() : thing.kind().clean();
        };
        if (!can) return Reply.error("The " + thing.name() + " cannot be " + (washing ? "washed" : verb + "ed") + " with " + the(rec.name()) + ".");
        switch (verb) {
            case "heat" -> w.state[t] = (byte) ((w.state[t] & ~HouseholdWorld.COLD) | HouseholdWorld.HOT);
            case "cool" -> w.state[t] = (byte) ((w.state[t] & ~HouseholdWorld.HOT) | HouseholdWorld.COLD);
            default -> w.state[t] = (byte) (w.state[t] | HouseholdWorld.CLEAN);
        }
        String result = switch (verb) {
            case "heat" -> "hot";
            case "cool" -> "cold";
            default -> "clean";
        };
        return done(w, "You " + (washing ? "wash" : verb) + " the " + thing.name() + " with " + the(rec.name()) + ". The " + thing.name()
                + " is now " + result + ".");
    }

    private static Reply examine(HouseholdWorld w, String what) {
        Object t = thing(w, what);
        if (t instanceof Integer i) {
            Thing thing = w.thing(i);
            String where = w.loc[i] < 0 ? "You are holding it." : "It is " + w.receptacle(w.loc[i]).prep() + " " + the(w.receptacle(w.loc[i]).name()) + ".";
            String s = stateWords(w, i);
            ObjectNode seen = Json.object();   // where it is, for plans that look a thing up (logic.longer-chain)
            seen.put("thing", thing.name());
            seen.put("room", w.map.rooms().get(w.roomOf(i)));
            if (w.loc[i] >= 0) seen.put("furniture", w.receptacle(w.loc[i]).name());
            return Reply.ok("The " + thing.name() + (s.isEmpty() ? "" : " is " + s) + ". " + where, seen);
        }
        Object r = receptacle(w, what);
        if (r instanceof Receptacle rec) {
            String kind = rec.appliance() == HouseholdNames.NONE ? "" : " You can " + switch (rec.appliance()) {
                case HouseholdNames.HEATS -> "heat";
                case HouseholdNames.COOLS -> "cool";
                case HouseholdNames.WASHES -> "wash";
                default -> "clean";
            } + " things with it.";
            if (rec.openable() && !w.open[rec.index()]) return Reply.ok(cap(the(rec.name())) + " is closed." + kind);
            return Reply.ok(contents(w, rec) + kind);
        }
        return (Reply) t;
    }

    // ---------------------------------------------------------------- descriptions

    static String describe(HouseholdWorld w) {
        StringBuilder sb = new StringBuilder(256);
        String here = w.map.rooms().get(w.room);
        sb.append("You are in the ").append(here).append('.');
        int[] recs = w.map.inRoom()[w.room];
        if (recs.length > 0) {
            sb.append(" You see ");
            for (int i = 0; i < recs.length; i++) {
                if (i > 0) sb.append(i == recs.length - 1 ? " and " : ", ");
                Receptacle rec = w.receptacle(recs[i]);
                sb.append(article(rec.name()));
                if (rec.openable()) sb.append(w.open[rec.index()] ? " (open)" : " (closed)");
            }
            sb.append('.');
            for (int r : recs) {
                Receptacle rec = w.receptacle(r);
                if (rec.openable() && !w.open[r]) continue;
                if (countIn(w, r) > 0) sb.append(' ').append(contents(w, rec));
            }
        }
        sb.append(" From here you can go to ");
        boolean first = true;
        for (int r = 0; r < w.map.rooms().size(); r++) {
            if (r == w.room) continue;
            if (!first) sb.append(", ");
            sb.append("the ").append(w.map.rooms().get(r));
            first = false;
        }
        sb.append('.');
        if (w.held >= 0) sb.append(" You are holding the ").append(w.thing(w.held).name()).append('.');
        return sb.toString();
    }

    /** "On the countertop you see a red mug and a green apple (dirty)." or "The fridge is empty." */
    static String contents(HouseholdWorld w, Receptacle rec) {
        int n = countIn(w, rec.index());
        if (n == 0) return cap(the(rec.name())) + " is empty.";
        StringBuilder sb = new StringBuilder(64);
        sb.append(cap(rec.prep())).append(' ').append(the(rec.name())).append(" you see ");
        int k = 0;
        for (int t = 0; t < w.loc.length; t++) {
            if (w.loc[t] != rec.index()) continue;
            if (k > 0) sb.append(k == n - 1 ? " and " : ", ");
            sb.append("a ").append(w.thing(t).name()).append(tags(w, t));
            k++;
        }
        return sb.append('.').toString();
    }

    private static int countIn(HouseholdWorld w, int rec) {
        int n = 0;
        for (int l : w.loc) if (l == rec) n++;
        return n;
    }

    private static String tags(HouseholdWorld w, int t) {
        String s = stateWords(w, t);
        return s.isEmpty() ? "" : " (" + s + ")";
    }

    private static String stateWords(HouseholdWorld w, int t) {
        int s = w.state[t];
        String temp = (s & HouseholdWorld.HOT) != 0 ? "hot" : (s & HouseholdWorld.COLD) != 0 ? "cold" : null;
        String clean = (s & HouseholdWorld.CLEAN) != 0 ? "clean" : w.thing(t).dirty() ? "dirty" : null;
        if (temp == null) return clean == null ? "" : clean;
        return clean == null ? temp : temp + ", " + clean;
    }

    /** Adds the completion notice when this command reached the goal. */
    private static Reply done(HouseholdWorld w, String text) {
        if (!w.reached()) return Reply.ok(text);
        ObjectNode payload = Json.object();
        payload.put("completion_code", w.code);
        return Reply.ok(text + " Task complete! Completion code: " + w.code + ".", payload);
    }

    // ---------------------------------------------------------------- name resolution

    /** The receptacle of the current room with this name (or a unique base name), else an error reply. */
    private static Object receptacle(HouseholdWorld w, String name) {
        int[] recs = w.map.inRoom()[w.room];
        Receptacle byBase = null;
        int bases = 0;
        for (int r : recs) {
            Receptacle rec = w.receptacle(r);
            if (rec.name().equals(name)) return rec;
            if (rec.base().equals(name)) {
                byBase = rec;
                bases++;
            }
        }
        if (bases == 1) return byBase;
        if (bases > 1) return Reply.malformed("Which " + name + " do you mean? Say the number, e.g. '" + name + " 1'.");
        if (name.isEmpty()) return Reply.malformed("Name a piece of furniture in the " + w.map.rooms().get(w.room) + ".");
        return Reply.error("There is no " + abbreviate(name) + " in the " + w.map.rooms().get(w.room) + ".");
    }

    /** The thing with this name (or a unique kind name) that is held or visible here, else an error reply. */
    private static Object thing(HouseholdWorld w, String name) {
        if (name.isEmpty()) return Reply.malformed("Name a thing, e.g. 'red mug'.");
        int byKind = -1;
        int kinds = 0;
        for (int t = 0; t < w.loc.length; t++) {
            if (!w.visible(t)) continue;
            Thing thing = w.thing(t);
            if (thing.name().equals(name)) return t;
            if (thing.kind().name().equals(name)) {
                byKind = t;
                kinds++;
            }
        }
        if (kinds == 1) return byKind;
        if (kinds > 1) return Reply.malformed("Which " + name + " do you mean? Say its colour too.");
        return Reply.error("You don't see a " + abbreviate(name) + " here.");
    }

    // ---------------------------------------------------------------- text helpers

    private static String stripWord(String text, String word) {
        String rest = Commands.after(text, word);
        return rest == null ? text : rest;
    }

    /** "the fridge", but "cabinet 2": numbered furniture takes no article. */
    static String the(String name) {
        char last = name.charAt(name.length() - 1);
        return last >= '0' && last <= '9' ? name : "the " + name;
    }

    static String article(String name) {
        char last = name.charAt(name.length() - 1);
        return last >= '0' && last <= '9' ? name : "a " + name;
    }

    static String cap(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
