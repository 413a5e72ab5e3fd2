package dev.openagent.shift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Base of the shifts that show tools under other names, parameters or descriptions: maps each call
 * back to the inner tool, its observation (and error messages, which name tools and parameters)
 * forward, and the guide's calls outward. The protocol tool {@code ask_user} is never touched.
 * A call of a familiar (inner) name this layer no longer shows is an unknown tool; other names it
 * does not list go down unchanged (a replacement an error reply named may live there). A name that an error
 * reply to one of its tools named (a retired tool's replacement that takes "the same parameters") takes that
 * tool's parameters as this layer shows them. Notices name tools as this layer shows them. In a
 * text-command environment the verbs {@code help} lists are renamed the same way ({@link TextVerbs}).
 */
public abstract class RenamingEnv extends ShiftEnv<RenamingEnv.Episode> {

    /** One tool as this layer shows it; {@code params} maps outer parameter names to inner ones. */
    public record Mapped(String inner, ToolSpec outer, Map<String, String> params) {
        /** The inner tool shown as {@code outer}, whose parameters are renamed as {@code innerToOuter} maps them. */
        public static Mapped of(ToolSpec inner, ToolSpec outer, Map<String, String> innerToOuter) {
            Map<String, String> params = new LinkedHashMap<>();
            innerToOuter.forEach((in, out) -> params.put(out, in));
            return new Mapped(inner.name(), outer, params);
        }
    }

    /** The names a renamed tool must not take: the tools' own and {@code ask_user}. */
    protected static java.util.Set<String> takenNames(List<ToolSpec> tools) {
        java.util.Set<String> taken = new java.util.HashSet<>();
        tools.forEach(t -> taken.add(t.name()));
        taken.add(Protocol.ASK_USER);
        return taken;
    }

    /**
     * Each tool renamed by {@code one}, in order; {@code one} gets the names already taken (the tools' own,
     * {@code ask_user} and the new names so far) and adds the name it picks. A mutable list, for shuffling.
     */
    protected static List<Mapped> renameEach(List<ToolSpec> tools, java.util.function.BiFunction<ToolSpec, java.util.Set<String>, Mapped> one) {
        java.util.Set<String> taken = takenNames(tools);
        List<Mapped> out = new ArrayList<>();
        for (ToolSpec t : tools) out.add(one.apply(t, taken));
        return out;
    }

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Map<String, Mapped> byOuter = new LinkedHashMap<>();
        final Map<String, Mapped> byInner = new HashMap<>();
        final Map<String, String> namesOut = new HashMap<>();
        /** Text-command environments: inner verb -> the verb shown, and back (empty for function-call ones). */
        final Map<String, String> verbsOut = new HashMap<>();
        final Map<String, String> verbsIn = new HashMap<>();
        /** Names this layer does not list that an error reply to one of its tools named: they take that tool's parameters. */
        final Map<String, Mapped> namedBy = new HashMap<>();
    }

    protected RenamingEnv(Env inner, Shift shift, Map<String, String> params) {
        super(inner, shift, params, Episode::new);
    }

    /** How this layer shows the inner tools (every tool but {@code ask_user}), in the order shown. */
    protected abstract List<Mapped> rename(List<ToolSpec> innerTools);

    @Override
    protected Start begin(Start in) {
        if (textCommand()) {
            renameVerbs();
            return in;
        }
        List<ToolSpec> tools = in.tools().stream().filter(t -> !Protocol.ASK_USER.equals(t.name())).toList();
        Map<String, ToolSpec> byName = new HashMap<>();
        tools.forEach(t -> byName.put(t.name(), t));
        List<Mapped> mapped = new ArrayList<>(rename(tools).stream().map(m -> describedOnly(byName.get(m.inner()), m)).toList());
        // A tool that kept its name (no description) keeps it: one the shift gave that name shows its own instead.
        java.util.Set<String> keptNames = new java.util.HashSet<>();
        mapped.forEach(m -> { if (m.outer().name().equals(m.inner()) && byName.get(m.inner()).description().isBlank()) keptNames.add(m.inner()); });
        mapped.replaceAll(m -> keptNames.contains(m.outer().name()) && !m.outer().name().equals(m.inner())
                ? new Mapped(m.inner(), m.outer().withName(m.inner()), m.params()) : m);
        for (Mapped m : mapped) {
            if (ep.byOuter.put(m.outer().name(), m) != null || Protocol.ASK_USER.equals(m.outer().name())) {
                throw new IllegalStateException(shift().id() + " produced a duplicate tool name " + m.outer().name());
            }
            ep.byInner.put(m.inner(), m);
            ep.namesOut.put(m.inner(), m.outer().name());
        }
        List<ToolSpec> shown = new ArrayList<>();
        for (Mapped m : mapped) shown.add(namingShownTools(m.outer()));
        in.tools().stream().filter(t -> Protocol.ASK_USER.equals(t.name())).forEach(shown::add);
        return new Start(Texts.replaceNames(in.systemPrompt(), ep.namesOut), in.query(), shown);
    }

    /**
     * A name is renamed only where something else tells what it is: a tool without a description keeps its name, and
     * so does a parameter without one (renaming them would leave nothing to go by). A renamed parameter that would
     * take such a kept name keeps its own instead.
     */
    private static Mapped describedOnly(ToolSpec inner, Mapped m) {
        Map<String, String> descriptions = new HashMap<>();
        inner.parameters().path("properties").fields().forEachRemaining(e -> descriptions.put(e.getKey(), e.getValue().path("description").asText("")));
        java.util.Set<String> kept = new java.util.HashSet<>();
        descriptions.forEach((p, d) -> { if (d.isBlank()) kept.add(p); });
        boolean keepName = inner.description().isBlank() && !m.outer().name().equals(inner.name());
        if (kept.isEmpty() && !keepName) return m;
        Map<String, String> renamed = new LinkedHashMap<>(); // the name shown so far -> the name shown now
        m.params().forEach((outer, in) -> renamed.put(outer, kept.contains(in) || kept.contains(outer) ? in : outer));
        if (new java.util.HashSet<>(renamed.values()).size() < renamed.size()) renamed.replaceAll((outer, now) -> m.params().get(outer));
        List<String> order = Schemas.params(m.outer().parameters()).stream().map(o -> renamed.getOrDefault(o, o)).toList();
        ToolSpec outer = new ToolSpec(keepName ? inner.name() : m.outer().name(), m.outer().description(),
                Schemas.rename(m.outer().parameters(), renamed, order));
        Map<String, String> innerToOuter = new LinkedHashMap<>();
        m.params().forEach((o, in) -> innerToOuter.put(in, renamed.get(o)));
        return Mapped.of(inner, outer, innerToOuter);
    }

    /**
     * A text-command environment's verbs (those {@code help} lists) are its tools: they are renamed as
     * tools would be (as parameterless tools named by their words joined with '_'), shown renamed in the
     * help text, and mapped back; a familiar verb this layer no longer shows is an unknown command.
     */
    private void renameVerbs() {
        List<String> verbs = TextVerbs.verbs(inner.info());
        List<ToolSpec> asTools = verbs.stream().map(v -> new ToolSpec(v.replace(' ', '_'), "", Schemas.empty())).toList();
        java.util.Set<String> taken = new java.util.HashSet<>(TextVerbs.RESERVED);
        for (Mapped m : rename(asTools)) {
            String verb = m.inner().replace('_', ' ');
            String shown = TextVerbs.verbName(m.outer().name());
            if (shown.isEmpty() || taken.contains(shown)) shown = Words.unique(shown.isEmpty() ? "do" : shown, taken);
            taken.add(shown);
            ep.verbsOut.put(verb, shown);
            ep.verbsIn.put(shown, verb);
        }
    }

    @Override
    protected Step act(Action action) {
        if (ep.verbsIn.isEmpty() || !(action instanceof Action.Command c)) return super.act(action);
        String text = Commands.normalize(c.text());
        if (Protocol.isHelp(text)) {
            Step s = forward(action);
            return s.withObservations(s.observations().stream().map(o -> o.isError() ? o : o.withText(TextVerbs.renameInHelp(o.text(), ep.verbsOut))).toList());
        }
        String shown = TextVerbs.verbOf(text, ep.verbsIn.keySet());
        if (shown == null && TextVerbs.verbOf(text, ep.verbsOut.keySet()) != null) return local(List.of(TextVerbs.unknown(c.text())));
        Action down = shown == null ? action : new Action.Command(TextVerbs.replaceVerb(text, shown, ep.verbsIn.get(shown)));
        Step s = forward(down);
        return s.withObservations(s.observations().stream().map(o -> o.withText(TextVerbs.renameQuoted(o.text(), ep.verbsOut))).toList());
    }

    @Override
    protected Route route(Action.ToolCall call) {
        if (Protocol.ASK_USER.equals(call.name())) return new Forward(call);
        Mapped m = ep.byOuter.get(call.name());
        if (m == null && ep.byInner.containsKey(call.name())) {
            return new Reply(unknownTool(call)); // a familiar name this layer no longer shows
        }
        if (m == null) {
            // Not a tool of this layer's list: the layers below decide (a replacement named in a reply, or an unknown tool).
            // A replacement takes the parameters of the tool whose reply named it, as this layer shows them.
            Mapped named = ep.namedBy.get(call.name());
            ObjectNode o = named == null || identity(named) ? null : Texts.argsObject(call.arguments());
            Action.ToolCall down = o == null ? call : new Action.ToolCall(call.id(), call.name(), Json.write(renameKeys(o, named.params(), true)));
            return new Forward(down, obs -> obs.isError()
                    ? Observation.toolError(obs.callId(), obs.tool(), ToolError.of(obs.error().code(), Texts.replaceNames(obs.error().message(), ep.namesOut)))
                    : obs);
        }
        String args = call.arguments();
        if (!identity(m)) {
            ObjectNode o = Texts.argsObject(args);
            if (o != null) args = Json.write(renameKeys(o, m.params(), true));
        }
        String outerName = call.name();
        return new Forward(new Action.ToolCall(call.id(), m.inner(), args), obs -> back(obs, m, outerName));
    }

    private Observation back(Observation o, Mapped m, String outerName) {
        Observation renamed = o.withTool(outerName);
        if (!o.isError()) return namingShownTools(renamed);
        learnReplacements(Texts.quoted(o.error().message()), m);
        Map<String, String> paramsOut = new HashMap<>();
        m.params().forEach((outer, inner) -> paramsOut.put(inner, outer));
        String msg = Texts.replaceQuoted(o.error().message(), t -> t.startsWith("~") ? t.substring(1) : paramsOut.getOrDefault(t, t));
        msg = Texts.replaceNames(msg, ep.namesOut);
        return Observation.toolError(o.callId(), outerName, ToolError.of(o.error().code(), msg));
    }

    /** A tool whose description and parameter descriptions name other tools as this layer shows them. */
    private ToolSpec namingShownTools(ToolSpec t) {
        ObjectNode schema = t.parameters();
        for (String p : Schemas.params(schema)) {
            String d = schema.path("properties").path(p).path("description").asText("");
            String renamed = Texts.replaceNames(d, ep.namesOut);
            if (!renamed.equals(d)) schema = Schemas.describe(schema, p, renamed);
        }
        return new ToolSpec(t.name(), Texts.replaceNames(t.description(), ep.namesOut), schema);
    }

    /**
     * A result that names tools (a hold that says which call completes it) names them as this layer shows them, in
     * its text and its payload alike.
     */
    private Observation namingShownTools(Observation o) {
        if (ep.namesOut.isEmpty() || ep.namesOut.keySet().stream().noneMatch(o.text()::contains)) return o;
        String text = Texts.replaceNames(o.text(), ep.namesOut);
        if (text.equals(o.text())) return o;
        JsonNode payload = o.payload() == null ? null : Json.rewrite(o.payload(), UnaryOperator.identity(), v -> Texts.replaceNames(v, ep.namesOut));
        return o.withPayload(payload, text);
    }

    /**
     * Notices (environment messages) name tools as this layer shows them. A line that names one of its tools and
     * a tool it does not list (a notice that one replaces the other) gives the unlisted one that tool's parameters.
     */
    @Override
    protected Observation otherObservation(Observation o) {
        if (textCommand() || o.source() != Observation.Source.ENV || ep.namesOut.isEmpty()) return o;
        for (String line : o.text().split("\n")) {
            List<String> names = Texts.quoted(line);
            Mapped about = names.stream().map(ep.byInner::get).filter(java.util.Objects::nonNull).findFirst().orElse(null);
            if (about != null) learnReplacements(names, about);
        }
        return o.withText(Texts.replaceNames(o.text(), ep.namesOut));
    }

    /** Quoted names that are neither this layer's tools nor {@code about}'s parameters take {@code about}'s parameters. */
    private void learnReplacements(List<String> quoted, Mapped about) {
        quoted.stream()
                .filter(n -> n.matches("[A-Za-z_][\\w.-]*") && !ep.byInner.containsKey(n) && !ep.byOuter.containsKey(n) && !about.params().containsValue(n))
                .forEach(n -> ep.namedBy.put(n, about));
    }

    /**
     * Renames argument keys. Inward, a key the layer does not show that collides with an inner
     * parameter name gets a '~' so the inner tool reports it as unknown instead of accepting it.
     */
    private static ObjectNode renameKeys(ObjectNode args, Map<String, String> outerToInner, boolean inward) {
        Map<String, String> map = outerToInner;
        if (!inward) {
            map = new HashMap<>();
            for (var e : outerToInner.entrySet()) map.put(e.getValue(), e.getKey());
        }
        ObjectNode out = Json.object();
        for (Iterator<Map.Entry<String, com.fasterxml.jackson.databind.JsonNode>> it = args.fields(); it.hasNext(); ) {
            var e = it.next();
            String k = e.getKey();
            String target = map.get(k);
            if (target == null) target = inward && outerToInner.containsValue(k) ? "~" + k : k;
            out.set(target, e.getValue());
        }
        return out;
    }

    private static boolean identity(Mapped m) {
        for (var e : m.params().entrySet()) if (!e.getKey().equals(e.getValue())) return false;
        return true;
    }

    /** The inner call as this layer shows it (unknown names pass unchanged). */
    protected Action.ToolCall outwardCall(Action.ToolCall c) {
        Mapped m = ep.byInner.get(c.name());
        if (m == null) {
            // A replacement a reply or notice named: its name as it is, its parameters as this layer shows the tool's it replaces.
            Mapped named = ep.namedBy.get(c.name());
            ObjectNode o = named == null || identity(named) ? null : Texts.argsObject(c.arguments());
            return o == null ? c : new Action.ToolCall(c.id(), c.name(), Json.write(renameKeys(o, named.params(), false)));
        }
        if (identity(m)) return new Action.ToolCall(c.id(), m.outer().name(), c.arguments());
        ObjectNode o = Texts.argsObject(c.arguments());
        String args = o == null ? c.arguments() : Json.write(renameKeys(o, m.params(), false));
        return new Action.ToolCall(c.id(), m.outer().name(), args);
    }

    @Override
    public Guide guide() {
        return LayerGuide.translating(inner.guide(), this, a -> switch (a) {
            case Action.CallTools c -> new Action.CallTools(c.calls().stream().map(this::outwardCall).toList());
            case Action.Command c when !ep.verbsOut.isEmpty() -> new Action.Command(TextVerbs.renameCommand(c.text(), ep.verbsOut));
            default -> a;
        });
    }
}
