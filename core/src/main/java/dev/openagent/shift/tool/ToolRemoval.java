package dev.openagent.shift.tool;

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
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Texts;
import dev.openagent.sandbox.Commands;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.Alternative;
import dev.openagent.sandbox.EnvFacts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tool.removal: familiar tools are gone (severity = how many, 1-3); another path exists. Tools the
 * task needs are removed only when the environment names another path to what they do
 * (declared on its tools, {@code EnvFacts.alternatives()}; poi: opening hours from the place details, distances from a
 * nearby search); the rest are tools the task does not need (never the ones that recover records by
 * id). Calling a removed tool is an unknown-tool error. In text-command environments verbs the task
 * does not use leave the help text ({@link TextVerbs}).
 */
public final class ToolRemoval extends ShiftEnv<ToolRemoval.Episode> {
    public static final Shift SHIFT = new Shift("tool.removal", Tier.INTERNALIZATION, Dimension.A,
            "Familiar tools are gone; the task stays solvable through another path.",
            List.of(Shift.SEVERITY), ToolRemoval::new).seenAs(Sign.TOOL_REMOVED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Set<String> removed = new HashSet<>();
    }
    private Map<String, Alternative> alternatives = Map.of();

    private ToolRemoval(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        if (textCommand()) return beginText(in);
        EnvFacts facts = facts();
        alternatives = facts.alternatives();
        Set<String> names = new LinkedHashSet<>();
        in.tools().forEach(t -> names.add(t.name()));
        names.remove(Protocol.ASK_USER);
        Set<String> planned = new LinkedHashSet<>(inner.task().plan().calls().stream().map(GoldPlan.Call::tool).toList());
        Set<String> keep = new HashSet<>();
        for (ToolSpec t : in.tools()) {
            for (String p : Schemas.params(t.parameters())) {
                if (p.endsWith("_id")) facts.lookup(p).ifPresent(l -> keep.add(l.tool()));
            }
        }
        List<String> order = new ArrayList<>();
        List<String> withAlt = new ArrayList<>(planned.stream().filter(alternatives::containsKey).filter(names::contains).toList());
        while (!withAlt.isEmpty()) order.add(withAlt.remove(rnd.nextInt(withAlt.size())));
        List<String> unused = new ArrayList<>(names.stream().filter(n -> !planned.contains(n) && !keep.contains(n)).toList());
        while (!unused.isEmpty()) order.add(unused.remove(rnd.nextInt(unused.size())));
        for (String n : order) {
            if (ep.removed.size() >= severity()) break;
            Alternative alt = alternatives.get(n);
            if (planned.contains(n) && (alt == null || usesRemoved(alt, n))) continue;
            if (!planned.contains(n) && alternativesNeed(n, planned)) continue;
            ep.removed.add(n);
        }
        return in.withTools(in.tools().stream().filter(t -> !ep.removed.contains(t.name())).toList());
    }

    /** Whether the alternative of a planned tool needs a tool already removed (or itself). */
    private boolean usesRemoved(Alternative alt, String tool) {
        return alt.uses().contains(tool) || alt.uses().stream().anyMatch(ep.removed::contains);
    }

    /** Whether a removed planned tool's alternative goes through this tool. */
    private boolean alternativesNeed(String tool, Set<String> planned) {
        for (String r : ep.removed) {
            Alternative alt = alternatives.get(r);
            if (alt != null && planned.contains(r) && alt.uses().contains(tool)) return true;
        }
        return false;
    }

    /**
     * Text-command environments: verbs the task does not use leave the help text, and commands with
     * them are unknown (the interpreter's undocumented aliases still reach it).
     */
    private Start beginText(Start in) {
        List<String> verbs = TextVerbs.verbs(inner.info());
        Set<String> planned = new HashSet<>();
        for (GoldPlan.Call c : inner.task().plan().calls()) {
            String verb = TextVerbs.verbOf(Commands.normalize(c.args().path("text").asText("")), verbs);
            if (verb != null) planned.add(verb);
        }
        List<String> unused = new ArrayList<>(verbs.stream().filter(v -> !planned.contains(v)).toList());
        while (!unused.isEmpty() && ep.removed.size() < severity()) ep.removed.add(unused.remove(rnd.nextInt(unused.size())));
        return in;
    }

    @Override
    protected Step act(Action action) {
        return hidingCommands(action, ep.removed, super::act);
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (!ep.removed.contains(call.name())) return new Forward(call);
        return new Reply(unknownTool(call));
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private Action.ToolCall replaced;
            private Alternative path;
            private ObjectNode replacedArgs;
            private final List<JsonNode> results = new ArrayList<>();
            private int made;

            @Override
            public Action next(Step last) {
                Action a;
                if (replaced != null) {
                    Observation o = innerStep.observations().stream().filter(x -> x.callId() != null && x.callId().startsWith("alt_")).findFirst().orElse(null);
                    if (o == null) return new Action.Answer("oracle: the other path to " + replaced.name() + " gave no result");
                    Step synthetic;
                    if (o.isError()) {
                        // The path fails as the removed tool would have (an expected failure when a probe shows a task is impossible).
                        synthetic = Step.of(List.of(Observation.toolError(replaced.id(), replaced.name(), o.error())));
                    } else {
                        results.add(o.payload());
                        GoldPlan.Call more = path.next().apply(replacedArgs, List.copyOf(results));
                        if (more != null) return call(more);
                        JsonNode value = path.result().apply(replacedArgs, List.copyOf(results));
                        synthetic = Step.of(List.of(Observation.tool(replaced.id(), replaced.name(), Json.write(value), value)));
                    }
                    replaced = null;
                    inner.handDown(synthetic);
                    a = innerNext(synthetic);
                } else {
                    a = innerNext();
                }
                if (a instanceof Action.CallTools c && c.calls().size() == 1 && ep.removed.contains(c.calls().getFirst().name())) {
                    replaced = c.calls().getFirst();
                    path = alternatives.get(replaced.name());
                    replacedArgs = Texts.argsObject(replaced.arguments());
                    results.clear();
                    GoldPlan.Call first = path.next().apply(replacedArgs, List.of());
                    if (first == null) return new Action.Answer("oracle: no other path to " + replaced.name());
                    return call(first);
                }
                return a;
            }

            private Action call(GoldPlan.Call c) {
                return Action.CallTools.of("alt_" + (made++), c.tool(), Json.write(c.resolve(results)));
            }
        };
    }
}
