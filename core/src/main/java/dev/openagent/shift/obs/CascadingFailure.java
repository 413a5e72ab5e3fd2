package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.EnvFacts.Prerequisite;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * obs.cascading-failure: mid-episode an upstream result is invalidated, and the call that depends on it fails with an
 * error naming the upstream call to redo. A call depends on an earlier successful call when its arguments pass a value
 * that call's result gave (an id, a code, a path: a value not in the request, the instructions, the tool list or what the user answered, nor
 * in that call's own arguments), or when the environment declares the earlier tool its prerequisite
 * ({@code Tool.after}: poi's check_availability before make_reservation) and the earlier call went with the same
 * shared arguments. At the first such call the closest upstream call (the latest one it depends on) is invalidated:
 * the call is refused with "409 Conflict: ... Call U again with the same arguments as before ({...}) to refresh it,
 * then repeat this call", and every call that depends on U is refused the same way until U is called again with
 * those arguments (or gives the invalidated values again). Severity 1: once; 2: twice (the second time at a later
 * dependent call, once the first was repaired); 3: twice, each time down the chain: U's own upstream is invalidated
 * too (up to three calls deep), so redoing U fails, naming its upstream, until that is redone first. A refused call
 * never reaches the service; each invalidation grants the episode the turns its repair takes.
 */
public final class CascadingFailure extends ShiftEnv<CascadingFailure.Episode> {
    public static final Shift SHIFT = new Shift("obs.cascading-failure", Tier.INTERACTION, Dimension.O,
            "Mid-episode a result an earlier call gave is invalidated: the call that uses it fails with an error naming the upstream call (tool and arguments) to redo; at severity 3 redoing it fails until its own upstream is redone.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "it traces values from one tool call's result into a later call's arguments; commands pass no results on"),
            CascadingFailure::new).seenAs(Sign.DEPENDENCY_ERRORS);

    /** The shortest value a result gives that counts as passed on when an argument holds it whole, and inside a longer text. */
    private static final int SHORTEST = 3;
    private static final int SHORTEST_INSIDE = 6;

    /** A call that reached the service and succeeded: what it was, what its result gave, which earlier calls it used. */
    record Done(String tool, ObjectNode args, Set<String> gave, Set<Integer> used) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        /** What the agent knew from elsewhere than a result: the request, the instructions, the tool list and the user's answers, as one text. */
        String known = "";
        /** The tools declared read-only: only their results are invalidated (redoing another call would do it twice). */
        Set<String> readOnly = Set.of();
        /** The tools the environment declares: only their calls are refused (not a job poll another layer added). */
        Set<String> declared = Set.of();
        final List<Done> done = new ArrayList<>();
        /** The latest call (index in {@link #done}) of a tool not declared read-only: one that may have changed something. */
        int lastWrite = -1;
        /** Values a call sent before any result gave them. */
        final Set<String> sentFirst = new HashSet<>();
        /** Each value a result gave -> the first call that gave it. */
        final Map<String, Integer> producer = new HashMap<>();
        /** Invalidated calls (index in {@link #done}) -> the values of theirs that were in use (empty: a declared prerequisite). */
        final Map<Integer, Set<String>> stale = new LinkedHashMap<>();
        int invalidations;
        /** Whether the next dependent call may be invalidated; false from an invalidation until the refused call succeeds. */
        boolean armed = true;
        /** The call the latest invalidation refused (tool and arguments), until it goes through. */
        String awaitingRepair;
        /** Whether a call of the latest turn was refused. */
        boolean refused;
        int redos;
    }

    private CascadingFailure(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    private int times() { return severity() == 1 ? 1 : 2; }

    private int depth() { return severity() >= 3 ? 3 : 1; }

    @Override
    protected Start begin(Start in) {
        ep.known = in.systemPrompt() + "\n" + in.query() + "\n" + Json.write(in.tools());
        ep.readOnly = facts().readOnlyTools();
        ep.declared = Set.copyOf(inner.info().tools());
        return in;
    }

    @Override
    protected void newTurn() { ep.refused = false; }

    @Override
    protected Route route(Action.ToolCall call) {
        if (Protocol.ASK_USER.equals(call.name())) {
            // What the user says is known as the request is (a zip code given when asked): no result gave it.
            return new Forward(call, o -> {
                ep.known += "\n" + o.text();
                return o;
            });
        }
        ObjectNode args = Texts.argsObject(call.arguments());
        if (args == null) return new Forward(call);
        // A tool another layer added (a job's poll, a token, a wait) is that layer's: its calls go through.
        Map<Integer, Set<String>> used = ep.declared.isEmpty() || ep.declared.contains(call.name()) ? uses(call.name(), args) : Map.of();
        // A value sent before any result gave it came from elsewhere (the user, answering a layer above this one): a
        // result that gives it later does not make the calls sending it depend on that result.
        List<String> sent = new ArrayList<>();
        leaves(args, sent);
        for (String v : sent) if (!ep.producer.containsKey(v)) ep.sentFirst.add(v);
        Integer upstream = used.keySet().stream().filter(ep.stale::containsKey).max(Integer::compare).orElse(null);
        if (upstream != null) {
            ep.refused = true;
            return new Reply(refusal(call, upstream));
        }
        // Only a call made since the agent last changed something: redoing an older one may find the world moved on
        // by the agent's own write (a look-up by the zip code the agent just changed finds no one).
        int closest = used.keySet().stream().max(Integer::compare).orElse(-1);
        if (ep.armed && ep.invalidations < times() && closest > ep.lastWrite) {
            // The closest upstream call is invalidated, and at severity 3 its own upstream calls down the chain.
            int u = closest;
            ep.stale.put(u, used.get(u));
            int links = 1;
            for (int at = u; links < depth(); links++) {
                Done d = ep.done.get(at);
                Integer up = d.used().stream().max(Integer::compare).orElse(null);
                if (up == null || up <= ep.lastWrite) break;
                ep.stale.put(up, gaveTo(ep.done.get(up), at, d));
                at = up;
            }
            ep.invalidations++;
            ep.armed = false;
            ep.awaitingRepair = call.name() + " " + Json.write(args);
            ep.refused = true;
            // The turns the repair takes: this one, a redo per link, and the refused call's repeat after a redo that failed.
            inner.grantTurns(2 * links + 1);
            return new Reply(refusal(call, u));
        }
        Set<Integer> usedCalls = used.keySet();
        return new Forward(call, o -> {
            if (!o.isError()) succeeded(call.name(), args, usedCalls, o);
            return o;
        });
    }

    /** The values of {@code up}'s result that the call {@code at} (which is {@code d}) passed on. */
    private Set<String> gaveTo(Done up, int at, Done d) {
        Set<String> out = new TreeSet<>();
        for (String v : up.gave()) if (holds(d.args(), v)) out.add(v);
        return out;
    }

    /** A call that went through: a repair of an invalidated call, the refused call repaired, and what its result gives. */
    private void succeeded(String tool, ObjectNode args, Set<Integer> used, Observation o) {
        Set<String> shown = values(o);
        ep.stale.entrySet().removeIf(e -> {
            Done d = ep.done.get(e.getKey());
            return d.tool().equals(tool) && (d.args().equals(args) || !e.getValue().isEmpty() && shown.containsAll(e.getValue()));
        });
        if ((tool + " " + Json.write(args)).equals(ep.awaitingRepair)) {
            ep.awaitingRepair = null;
            ep.armed = true;
        }
        Set<String> gave = new LinkedHashSet<>();
        for (String v : shown) if (!ep.known.contains(v) && !ep.sentFirst.contains(v) && !holds(args, v)) gave.add(v);
        int index = ep.done.size();
        if (!ep.readOnly.contains(tool)) ep.lastWrite = index;
        ep.done.add(new Done(tool, args.deepCopy(), gave, Set.copyOf(used)));
        for (String v : gave) ep.producer.putIfAbsent(v, index);
    }

    /**
     * The earlier calls a call depends on (index -> the values of theirs it passes; empty for a declared prerequisite):
     * those whose result gave a value its arguments hold, and the latest call of each tool declared its prerequisite
     * that went with the same shared arguments.
     */
    private Map<Integer, Set<String>> uses(String tool, ObjectNode args) {
        Map<Integer, Set<String>> out = new HashMap<>();
        List<String> leaves = new ArrayList<>();
        leaves(args, leaves);
        for (String leaf : leaves) {
            Integer exact = ep.producer.get(leaf);
            if (exact != null && !ep.readOnly.contains(ep.done.get(exact).tool())) exact = null;
            if (exact != null) out.computeIfAbsent(exact, k -> new TreeSet<>()).add(leaf);
            if (leaf.length() <= SHORTEST_INSIDE) continue;
            ep.producer.forEach((v, i) -> {
                if (v.length() >= SHORTEST_INSIDE && !v.equals(leaf) && ep.readOnly.contains(ep.done.get(i).tool()) && inside(leaf, v)) out.computeIfAbsent(i, k -> new TreeSet<>()).add(v);
            });
        }
        for (Prerequisite p : facts().prerequisites()) {
            if (!p.after().equals(tool) || !ep.readOnly.contains(p.before())) continue;
            for (int i = ep.done.size() - 1; i >= 0; i--) {
                Done d = ep.done.get(i);
                if (d.tool().equals(p.before()) && sameShared(d.args(), args)) {
                    out.putIfAbsent(i, new TreeSet<>());
                    break;
                }
            }
        }
        return out;
    }

    /** Whether the arguments both calls give agree. */
    private static boolean sameShared(ObjectNode a, ObjectNode b) {
        for (var it = a.fields(); it.hasNext(); ) {
            var e = it.next();
            if (b.has(e.getKey()) && !b.get(e.getKey()).equals(e.getValue())) return false;
        }
        return true;
    }

    /** Whether the arguments pass this value: an argument is it, or holds it between non-word characters. */
    private static boolean holds(ObjectNode args, String v) {
        List<String> leaves = new ArrayList<>();
        leaves(args, leaves);
        for (String leaf : leaves) if (leaf.equals(v) || v.length() >= SHORTEST_INSIDE && inside(leaf, v)) return true;
        return false;
    }

    private static boolean inside(String text, String v) {
        for (int at = text.indexOf(v); at >= 0; at = text.indexOf(v, at + 1)) {
            int end = at + v.length();
            if ((at == 0 || !Character.isLetterOrDigit(text.charAt(at - 1))) && (end == text.length() || !Character.isLetterOrDigit(text.charAt(end)))) return true;
        }
        return false;
    }

    private static void leaves(JsonNode n, List<String> out) {
        if (n.isTextual()) out.add(n.asText());
        else if (n.isContainerNode()) n.forEach(x -> leaves(x, out));
    }

    /** The values a result gives: its text leaves (a JSON result), else its words (a text result), long enough to be one. */
    private static Set<String> values(Observation o) {
        Set<String> out = new LinkedHashSet<>();
        if (o.payload() != null && o.payload().isContainerNode()) {
            List<String> leaves = new ArrayList<>();
            leaves(o.payload(), leaves);
            for (String l : leaves) if (l.length() >= SHORTEST && l.length() <= 200) out.add(l);
            return out;
        }
        for (String w : o.text().split("[\\s\"'`,;()\\[\\]{}<>]+")) {
            String v = w.replaceAll("[.:]+$", "");
            if (v.length() >= SHORTEST + 1 && v.length() <= 200) out.add(v);
        }
        return out;
    }

    /** The error of a call that depends on an invalidated call: what was invalidated, and the call that refreshes it. */
    private Observation refusal(Action.ToolCall call, int upstream) {
        Done u = ep.done.get(upstream);
        Set<String> values = ep.stale.get(upstream);
        String what = values.isEmpty()
                ? "the earlier " + u.tool() + " call it depends on is no longer valid (its result expired upstream)"
                : "the " + (values.size() == 1 ? "value " : "values ") + String.join(", ", values) + " that an earlier " + u.tool()
                + " call returned " + (values.size() == 1 ? "is" : "are") + " no longer valid (the data behind " + (values.size() == 1 ? "it" : "them")
                + " changed upstream)";
        return error(call, ToolError.Code.DOMAIN, "409 Conflict: this call depends on an earlier result: " + what + ". Call " + u.tool()
                + " again with the same arguments as before (" + Json.write(u.args()) + ") to refresh it, then repeat this call.");
    }

    /**
     * The oracle, after a refused turn, redoes the invalidated calls one turn each, the deepest upstream first, then
     * sends the refused action again.
     */
    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private final Deque<Action> pending = new ArrayDeque<>();
            private Action lastAction;

            @Override
            public Action next(Step last) {
                if (pending.isEmpty() && ep.refused && lastAction != null) {
                    ep.stale.keySet().stream().sorted().forEach(i -> {
                        Done d = ep.done.get(i);
                        pending.add(Action.CallTools.of("redo_" + (ep.redos++), d.tool(), Json.write(d.args())));
                    });
                    pending.add(lastAction);
                }
                if (!pending.isEmpty()) return pending.poll();
                lastAction = innerNext();
                return lastAction;
            }
        };
    }
}
