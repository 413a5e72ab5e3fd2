package dev.openagent.shift.tool;

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
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tool.set-change: the tool set changes while the agent works. Right after the agent's first successful tool
 * result a notice says that tools were withdrawn and names the new tools that replace them (same parameters,
 * same results); from then on a withdrawn tool answers 410 Gone naming its replacement. Severity 1 withdraws
 * the tool the agent just used; 2 also the next tool the task needs; 3 every other tool the task still needs.
 * The tool list the agent was shown at the start does not change: the notice is how it learns.
 */
public final class SetChange extends ShiftEnv<SetChange.Episode> {
    public static final Shift SHIFT = new Shift("tool.set-change", Tier.INTERACTION, Dimension.A,
            "Mid-episode a tool the agent already used is withdrawn and a notice names the new tool that replaces it.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "tools are withdrawn and replaced by tools that take the same arguments"), SetChange::new).seenAs(Sign.WITHDRAWAL_NOTICE, Sign.TOOL_ADDED, Sign.TOOL_REMOVED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, String> replacements = new LinkedHashMap<>(); // old -> new
        final Map<String, String> originals = new LinkedHashMap<>();    // new -> old
        Set<String> names;
        boolean changed;
    }

    private SetChange(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        ep.names = new HashSet<>();
        in.tools().forEach(t -> ep.names.add(t.name()));
        return in;
    }

    @Override
    protected Route route(Action.ToolCall call) {
        String r = ep.replacements.get(call.name());
        if (r != null) {
            return new Reply(error(call, ToolError.Code.UNAVAILABLE, "410 Gone: '" + call.name() + "' was withdrawn. Use '" + r
                    + "' instead; it takes the same parameters."));
        }
        String old = ep.originals.get(call.name());
        if (old != null) {
            String shown = call.name();
            return new Forward(new Action.ToolCall(call.id(), old, call.arguments()), o -> o.withTool(shown));
        }
        return new Forward(call);
    }

    @Override
    protected Step act(Action action) {
        Step s = super.act(action);
        if (ep.changed || s.done() || !(action instanceof Action.CallTools c)) return s;
        String used = null;
        for (Observation o : s.observations()) {
            if (o.source() == Observation.Source.TOOL && !o.isError() && o.tool() != null && ep.names.contains(o.tool()) && !Protocol.ASK_USER.equals(o.tool())) {
                used = o.tool();
                break;
            }
        }
        if (used == null || ep.originals.containsKey(used)) return s;
        ep.changed = true;
        Set<String> withdrawn = new LinkedHashSet<>();
        withdrawn.add(used);
        List<String> rest = new ArrayList<>();
        for (GoldPlan.Call x : inner.task().plan().calls()) {
            if (ep.names.contains(x.tool()) && !x.tool().equals(used) && !Protocol.ASK_USER.equals(x.tool()) && !rest.contains(x.tool())) rest.add(x.tool());
        }
        if (severity() == 2 && !rest.isEmpty()) withdrawn.add(rest.getFirst());
        if (severity() >= 3) withdrawn.addAll(rest);
        List<String> lines = new ArrayList<>();
        for (String old : withdrawn) {
            String r = old + "_2";
            while (ep.names.contains(r)) r = r + "x";
            ep.names.add(r);
            ep.replacements.put(old, r);
            ep.originals.put(r, old);
            ToolSpec spec = outerStart.tools().stream().filter(t -> t.name().equals(old)).findFirst().orElseThrow();
            lines.add("- '" + old + "' is withdrawn; use '" + r + "' (same parameters: " + String.join(", ", dev.openagent.shift.Schemas.params(spec.parameters()))
                    + "). " + spec.description());
        }
        List<Observation> out = new ArrayList<>(s.observations());
        out.add(Observation.env("Notice: the tool set changed.\n" + String.join("\n", lines), null));
        return s.withObservations(out);
    }

    @Override
    public Guide guide() {
        return LayerGuide.translating(inner.guide(), this, a -> a instanceof Action.CallTools c ? LayerGuide.renamed(c, ep.replacements) : a);
    }
}
