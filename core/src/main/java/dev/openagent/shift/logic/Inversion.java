package dev.openagent.shift.logic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.EnvFacts.Prerequisite;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * logic.inversion: the order of a prerequisite pair is reversed, as the schemas document. Where
 * the rules said "{@code A} must succeed before {@code B}" (poi: check_availability before
 * make_reservation; else pairs of the task's plan with no data flowing between them), {@code B}
 * now only places a hold and returns {@code hold_id}; calling {@code A} afterwards with
 * {@code hold_id} and the same shared arguments completes it and returns both results. {@code A}
 * without {@code hold_id} still answers but no longer enables {@code B}.
 */
public final class Inversion extends ShiftEnv<Inversion.Episode> {
    public static final Shift SHIFT = new Shift("logic.inversion", Tier.REASONING, Dimension.A,
            "The dependency order of a prerequisite pair is reversed (documented in the schemas): the dependent call now comes first and holds, the prerequisite completes it.",
            List.of(), info -> Shift.needsTools(info, "it reverses a prerequisite pair of tool calls through a hold id; commands take no ids"), Inversion::new);

    static final String HOLD = "hold_id";

    private record Held(Action.ToolCall call, String before) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, String> beforeOf = new HashMap<>(); // after -> before
        final Map<String, String> afterOf = new HashMap<>();  // before -> after
        final Map<String, Held> holds = new HashMap<>();
        final Map<String, List<String>> shared = new HashMap<>();
        /** The hold placed by the latest step, for the guide. */
        String lastHold;
    }

    private Inversion(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Map<String, ToolSpec> byName = new HashMap<>();
        in.tools().forEach(t -> byName.put(t.name(), t));
        List<Prerequisite> pairs = new ArrayList<>(facts().prerequisites());
        if (pairs.isEmpty()) pairs.addAll(fromPlan(inner.task().plan()));
        for (Prerequisite p : pairs) {
            if (!byName.containsKey(p.before()) || !byName.containsKey(p.after()) || Protocol.ASK_USER.equals(p.before())
                    || Protocol.ASK_USER.equals(p.after()) || ep.beforeOf.containsKey(p.after()) || ep.afterOf.containsKey(p.before())
                    || ep.afterOf.containsKey(p.after()) || ep.beforeOf.containsKey(p.before())) continue;
            ep.beforeOf.put(p.after(), p.before());
            ep.afterOf.put(p.before(), p.after());
            List<String> common = new ArrayList<>(Schemas.params(byName.get(p.before()).parameters()));
            common.retainAll(Schemas.params(byName.get(p.after()).parameters()));
            ep.shared.put(p.before(), common);
        }
        if (ep.afterOf.isEmpty()) return in;
        List<ToolSpec> tools = new ArrayList<>();
        StringBuilder note = new StringBuilder("\nCall order change (2026-11), replacing any earlier rule about these calls:\n");
        for (ToolSpec t : in.tools()) {
            String a = ep.beforeOf.get(t.name());
            String b = ep.afterOf.get(t.name());
            if (a != null) {
                tools.add(t.withDescription(t.description() + " CHANGED: this call now only places a hold and returns " + HOLD
                        + "; nothing is done until you call " + a + " afterwards with that " + HOLD + " and the same "
                        + String.join(", ", ep.shared.get(a)) + ", which completes it and returns its result."));
                note.append("- ").append(t.name()).append(" comes first now (it returns a ").append(HOLD).append("); then call ").append(a)
                        .append(" with the ").append(HOLD).append(" to complete it. Calling ").append(a).append(" beforehand no longer enables ")
                        .append(t.name()).append(".\n");
            } else if (b != null) {
                ObjectNode schema = Schemas.withParam(t.parameters(), HOLD, "string", "The " + HOLD + " returned by " + b
                        + ": completes that held " + b + " (call " + b + " first). Give the same " + String.join(", ", ep.shared.get(t.name())) + ".", false);
                tools.add(new ToolSpec(t.name(), t.description() + " With " + HOLD + " it also completes a held " + b + " and returns its result.", schema));
            } else {
                tools.add(t);
            }
        }
        return new Start(in.systemPrompt() + note, in.query(), tools);
    }

    /**
     * Consecutive calls of different tools of the plan with no data flowing from the first to the second, where the
     * second tool is not called before (its hold is completed by repeating the first call, whose arguments the plan
     * must have given by then).
     */
    private static List<Prerequisite> fromPlan(GoldPlan plan) {
        List<Prerequisite> out = new ArrayList<>();
        for (int i = 0; i + 1 < plan.calls().size(); i++) {
            GoldPlan.Call a = plan.calls().get(i);
            GoldPlan.Call b = plan.calls().get(i + 1);
            int at = i;
            // Completing the hold repeats the first call, which only a lookup allows: a later call reads its result.
            boolean lookup = plan.calls().stream().anyMatch(c -> c.dependsOn().contains(at));
            boolean calledBefore = plan.calls().subList(0, i).stream().anyMatch(c -> c.tool().equals(b.tool()));
            if (lookup && !calledBefore && !a.tool().equals(b.tool()) && !b.dependsOn().contains(i)) out.add(new Prerequisite(a.tool(), b.tool()));
        }
        return out;
    }

    @Override
    protected void newTurn() { ep.lastHold = null; }

    @Override
    protected Step act(Action action) {
        if (action instanceof Action.CallTools c && c.calls().stream().anyMatch(this::completes)) {
            List<Observation> out = new ArrayList<>();
            Step s = null;
            for (Action.ToolCall call : c.calls()) {
                s = completes(call) ? complete(call) : super.act(new Action.CallTools(List.of(call)));
                out.addAll(s.observations());
                if (s.done()) break;
            }
            return s.withObservations(out);
        }
        return super.act(action);
    }

    private boolean completes(Action.ToolCall call) {
        if (!ep.afterOf.containsKey(call.name())) return false;
        ObjectNode args = Texts.argsObject(call.arguments());
        return args != null && args.has(HOLD);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        String before = ep.beforeOf.get(call.name());
        if (before == null) return new Forward(call);
        String id = "H-" + (10000 + rnd.nextInt(90000));
        ep.holds.put(id, new Held(call, before));
        ep.lastHold = id;
        ObjectNode out = Json.object();
        out.put(HOLD, id);
        out.put("status", "held");
        out.put("next", "call " + before + " with " + HOLD + " " + id + " to complete");
        return new Reply(Observation.tool(call.id(), call.name(), Json.write(out), out));
    }

    /** The prerequisite called with a hold: run it, then the held call, and report both. */
    private Step complete(Action.ToolCall call) {
        ObjectNode args = Texts.argsObject(call.arguments());
        String id = args.get(HOLD).asText();
        Held h = ep.holds.get(id);
        String problem = h == null ? "unknown " + HOLD + " '" + Texts.abbreviate(id, 40) + "'"
                : !h.before().equals(call.name()) ? HOLD + " " + id + " must be completed with " + h.before() : mismatch(args, h);
        if (problem != null) return local(List.of(error(call, ToolError.Code.DOMAIN, problem)));
        args.remove(HOLD);
        Step sa = forward(new Action.CallTools(List.of(new Action.ToolCall(call.id(), call.name(), Json.write(args)))));
        Observation oa = sa.observations().stream().filter(o -> call.id().equals(o.callId())).findFirst().orElse(null);
        if (sa.done() || oa == null || oa.isError()) return sa;
        Step sb = forward(new Action.CallTools(List.of(h.call())));
        Observation ob = sb.observations().stream().filter(o -> h.call().id().equals(o.callId())).findFirst().orElse(null);
        ObjectNode merged = oa.payload() instanceof ObjectNode o ? o.deepCopy() : Json.object();
        merged.put(HOLD, id);
        if (ob == null || ob.isError()) {
            merged.put("hold_status", "failed");
            merged.put("hold_error", ob == null ? "no result" : ob.error().message());
        } else {
            ep.holds.remove(id);
            merged.put("hold_status", "completed");
            if (ob.payload() instanceof ObjectNode bo) bo.fields().forEachRemaining(e -> merged.set(e.getKey(), e.getValue()));
        }
        Observation combined = Observation.tool(call.id(), call.name(), Json.write(merged), merged);
        return sb.done() ? Step.end(List.of(combined), sb.outcome()) : Step.of(List.of(combined));
    }

    /** Why the completing call does not go with the held one: a shared argument the held call gave differs (or is missing). */
    private String mismatch(ObjectNode args, Held h) {
        ObjectNode held = Texts.argsObject(h.call().arguments());
        for (String p : ep.shared.get(h.before())) {
            JsonNode b = held == null ? null : held.get(p);
            if (b == null) continue;   // the held call did not give it: the prerequisite's own argument
            if (!b.equals(args.get(p))) return "'" + p + "' does not match the held " + h.call().name();
        }
        return null;
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private String hold;
            private Action.ToolCall held;
            private int completions;
            /** The arguments the plan last gave each prerequisite: its own required ones when it shares few with the held call. */
            private final Map<String, ObjectNode> lastArgs = new HashMap<>();

            @Override
            public Action next(Step last) {
                if (hold == null && held != null && ep.lastHold != null) {
                    hold = ep.lastHold;
                    ObjectNode heldArgs = Texts.argsObject(held.arguments());
                    String before = ep.beforeOf.get(held.name());
                    ObjectNode args = lastArgs.containsKey(before) ? lastArgs.get(before).deepCopy() : Json.object();
                    for (String p : ep.shared.get(before)) if (heldArgs.has(p)) args.set(p, heldArgs.get(p));
                    args.put(HOLD, hold);
                    return Action.CallTools.of("complete_" + (completions++), before, Json.write(args));
                }
                hold = null;
                held = null;
                Action a = innerNext();
                if (a instanceof Action.CallTools c) {
                    for (Action.ToolCall call : c.calls()) {
                        ObjectNode args = Texts.argsObject(call.arguments());
                        if (args != null && ep.afterOf.containsKey(call.name())) lastArgs.put(call.name(), args);
                    }
                    if (c.calls().size() == 1 && ep.beforeOf.containsKey(c.calls().getFirst().name())) held = c.calls().getFirst();
                }
                return a;
            }
        };
    }

}
