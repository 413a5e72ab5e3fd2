package dev.openagent.shift.obs;

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
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * obs.redirect: tools are retired and their error reply names the replacement. Severity sets how
 * many tools (1-3, those the task needs first). At severity 1 the retired tool's description says
 * so and the replacement is listed; at 2 the list still shows the old tool as if nothing happened
 * (the replacement is listed too); at 3 the replacement is not listed at all: only the reply names it.
 */
public final class Redirect extends ShiftEnv<Redirect.Episode> {
    public static final Shift SHIFT = new Shift("obs.redirect", Tier.INTERACTION, Dimension.O,
            "Tools are deprecated; calling one returns an error that names its replacement (same parameters).",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "the retired tool's error names its replacement, which is then called with the same arguments; commands have no such arguments to carry over"), Redirect::new).seenAs(Sign.RETIRED_ERRORS, Sign.DESCRIPTION_RETIRED, Sign.TOOL_VERSION_ADDED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, String> replacements = new HashMap<>(); // old -> new
        final Map<String, String> originals = new HashMap<>();    // new -> old
    }

    private Redirect(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Set<String> names = new HashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        List<String> pool = new ArrayList<>();
        List<String> planned = new ArrayList<>(new LinkedHashSet<>(inner.task().plan().calls().stream().map(GoldPlan.Call::tool).toList()));
        while (!planned.isEmpty()) pool.add(planned.remove(rnd.nextInt(planned.size())));
        List<String> rest = new ArrayList<>(in.tools().stream().map(ToolSpec::name).filter(n -> !pool.contains(n)).toList());
        while (!rest.isEmpty()) pool.add(rest.remove(rnd.nextInt(rest.size())));
        pool.removeIf(n -> Protocol.ASK_USER.equals(n) || !names.contains(n));
        for (String old : pool.subList(0, Math.min(severity(), pool.size()))) {
            String r = old + "_v2";
            while (names.contains(r)) r = r + "x";
            names.add(r);
            ep.replacements.put(old, r);
            ep.originals.put(r, old);
        }
        List<ToolSpec> tools = new ArrayList<>();
        for (ToolSpec t : in.tools()) {
            String r = ep.replacements.get(t.name());
            if (r == null) {
                tools.add(t);
                continue;
            }
            tools.add(severity() == 1 ? t.withDescription("Deprecated: use " + r + ". " + t.description()) : t);
            if (severity() < 3) tools.add(t.withName(r));
        }
        return in.withTools(tools);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        String r = ep.replacements.get(call.name());
        if (r != null) {
            return new Reply(error(call, ToolError.Code.UNAVAILABLE, "410 Gone: '" + call.name() + "' was retired on 2026-11-30 and no longer answers. "
                    + "Use '" + r + "' instead; it takes the same parameters and returns the same result."));
        }
        String old = ep.originals.get(call.name());
        if (old != null) {
            String shown = call.name();
            return new Forward(new Action.ToolCall(call.id(), old, call.arguments()), o -> {
                Observation x = o.withTool(shown);
                return o.isError() ? Observation.toolError(o.callId(), shown, ToolError.of(o.error().code(),
                        Texts.replaceNames(o.error().message(), ep.replacements))) : x;
            });
        }
        return new Forward(call);
    }

    @Override
    public Guide guide() {
        Set<String> learned = new HashSet<>();
        return LayerGuide.preceding(inner.guide(), this, c -> {
            // Call the familiar name first; the reply names the replacement.
            List<Action.ToolCall> probes = c.calls().stream()
                    .filter(x -> ep.replacements.containsKey(x.name()) && !learned.contains(x.name())).toList();
            probes.forEach(x -> learned.add(x.name()));
            return probes.isEmpty() ? null : new Action.CallTools(probes);
        }, c -> LayerGuide.renamed(c, ep.replacements));
    }
}
