package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Checks;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.RecordLookup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * obs.missing-values: fields of list items come back null (severity 1) or missing (2, 3) and must
 * be recovered through another tool: the one returning the entity's full record by its id
 * (a record the tools declare, else a {@code get_*} tool whose only required parameter is that id).
 * Severity 1 nulls one field of about a third of the items, 2 drops one or two fields of half of
 * them, 3 drops every recoverable field of most. Ids are never dropped.
 */
public final class MissingValues extends ShiftEnv<MissingValues.Episode> {
    public static final Shift SHIFT = new Shift("obs.missing-values", Tier.INTERACTION, Dimension.O,
            "Fields of list results are missing or null; recover them with the tool that returns the full record by id.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "observations are prose, not records with fields to drop and recover by id"), MissingValues::new);

    /** A value the agent was not shown, and how to get it back. */
    private record Hidden(RecordLookup lookup, String id, String key, JsonNode value) {}

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final List<Hidden> hidden = new ArrayList<>();
        final Map<String, Optional<RecordLookup>> lookups = new HashMap<>();
    }

    private MissingValues(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        return in.withSystemPrompt(in.systemPrompt() + "\nList results may have fields that are missing or null; "
                + "fetch the full record of an entity by its id to fill them in.\n");
    }

    private Optional<RecordLookup> lookup(String idField) {
        return ep.lookups.computeIfAbsent(idField, k -> facts().lookup(k).or(() -> fallback(k)));
    }

    /** A get_* tool whose only required parameter is the id; it is assumed to return every field. */
    private Optional<RecordLookup> fallback(String idField) {
        for (ToolSpec t : innerStart.tools()) {
            if (Protocol.ASK_USER.equals(t.name()) || !t.name().startsWith("get")) continue;
            List<String> required = new ArrayList<>();
            t.parameters().path("required").forEach(n -> required.add(n.asText()));
            if (required.equals(List.of(idField))) return Optional.of(new RecordLookup(t.name(), idField, idField, Set.of()));
        }
        return Optional.empty();
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || !(o.payload() instanceof ObjectNode payload)) return o;
        int sev = severity();
        double share = sev == 1 ? 0.35 : sev == 2 ? 0.5 : 0.8;
        ObjectNode out = payload.deepCopy();
        boolean changed = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = out.fields(); it.hasNext(); ) {
            JsonNode arr = it.next().getValue();
            if (!arr.isArray()) continue;
            for (JsonNode item : arr) {
                if (!(item instanceof ObjectNode obj)) continue;
                String idKey = idKey(obj);
                if (idKey == null) continue;
                Optional<RecordLookup> l = lookup(idKey);
                if (l.isEmpty() || rnd.nextDouble() >= share) continue;
                List<String> candidates = new ArrayList<>();
                obj.fieldNames().forEachRemaining(k -> {
                    JsonNode v = obj.get(k);
                    boolean recoverable = l.get().fields().isEmpty() || l.get().fields().contains(k);
                    if (!k.endsWith("_id") && recoverable && (v.isTextual() || v.isNumber())) candidates.add(k);
                });
                if (candidates.isEmpty()) continue;
                int n = sev == 1 ? 1 : sev == 2 ? 1 + rnd.nextInt(Math.min(2, candidates.size())) : candidates.size();
                for (int i = 0; i < n; i++) {
                    String k = candidates.remove(rnd.nextInt(candidates.size()));
                    ep.hidden.add(new Hidden(l.get(), obj.get(idKey).asText(), k, obj.get(k)));
                    if (sev == 1) obj.putNull(k);
                    else obj.remove(k);
                    changed = true;
                }
            }
        }
        return changed ? o.withPayload(out, Json.write(out)) : o;
    }

    private static String idKey(ObjectNode obj) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (k.endsWith("_id") && obj.get(k).isTextual()) return k;
        }
        return null;
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private Action pending;
            private final List<Hidden> queue = new ArrayList<>();
            private Hidden asked;
            private int lookupsMade;

            @Override
            public Action next(Step last) {
                if (asked != null) {
                    String problem = verify(asked, innerStep);
                    if (problem != null) return new Action.Answer("oracle: " + problem);
                    asked = null;
                }
                if (pending == null) {
                    pending = innerNext();
                    Set<String> text = values(pending);
                    Set<String> entities = new LinkedHashSet<>();
                    for (Hidden h : ep.hidden) {
                        if (text.stream().anyMatch(t -> t.contains(Checks.normalize(h.value().asText()))) && entities.add(h.lookup().tool() + "|" + h.id())) {
                            queue.add(h);
                        }
                    }
                }
                if (!queue.isEmpty()) {
                    asked = queue.removeFirst();
                    ObjectNode args = Json.object();
                    args.put(asked.lookup().param(), asked.id());
                    return Action.CallTools.of("recover_" + (lookupsMade++), asked.lookup().tool(), Json.write(args));
                }
                Action a = pending;
                pending = null;
                return a;
            }

            /** Checks the lookup brought back every hidden value of that entity; marks them recovered. */
            private String verify(Hidden h, Step s) {
                Observation o = s == null ? null : s.observations().stream().filter(x -> x.callId() != null && x.callId().startsWith("recover_")).findFirst().orElse(null);
                if (o == null || o.isError() || o.payload() == null) return "recovery call " + h.lookup().tool() + " failed: " + (o == null ? "no result" : o.text());
                for (Iterator<Hidden> it = ep.hidden.iterator(); it.hasNext(); ) {
                    Hidden x = it.next();
                    if (!x.id().equals(h.id()) || !x.lookup().equals(h.lookup())) continue;
                    JsonNode got = o.payload().get(x.key());
                    if (got == null || !got.asText().equals(x.value().asText())) {
                        return h.lookup().tool() + " does not give back '" + x.key() + "' of " + h.id();
                    }
                    it.remove();
                }
                return null;
            }
        };
    }

    /** The normalised texts an action says: its answer or its argument values. */
    private static Set<String> values(Action a) {
        Set<String> out = new LinkedHashSet<>();
        switch (a) {
            case Action.Answer x -> out.add(Checks.normalize(x.text()));
            case Action.CallTools c -> {
                for (Action.ToolCall call : c.calls()) {
                    ObjectNode args = dev.openagent.shift.Texts.argsObject(call.arguments());
                    if (args != null) args.elements().forEachRemaining(v -> out.add(Checks.normalize(v.asText())));
                }
            }
            default -> { }
        }
        return out;
    }

}
