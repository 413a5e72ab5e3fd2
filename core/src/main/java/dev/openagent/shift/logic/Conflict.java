package dev.openagent.shift.logic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * logic.conflict: tool results merge several data sources that disagree; the system prompt says
 * the {@code registry} source is authoritative. Severity 1: a third of the results have a second,
 * partial source after the registry that differs in one value; 2: two thirds, the two sources in
 * random order, the partial one differing in about a third of the values; 3: every result, three
 * full sources in random order, half the values differ and the stale sources claim to be newer.
 */
public final class Conflict extends ShiftEnv<Void> {
    public static final Shift SHIFT = new Shift("logic.conflict", Tier.REASONING, Dimension.O,
            "Results merge data sources that disagree (more results and more values by severity); the instructions say which source is authoritative.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "its sources disagree on fields of JSON results, one field documented as authoritative; prose observations have no fields"), Conflict::new);

    static final String AUTHORITY = "registry";
    private static final List<String> OTHERS = List.of("partner_feed", "community_cache", "legacy_mirror");

    private Conflict(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Start begin(Start in) {
        return in.withSystemPrompt(in.systemPrompt() + "\nData sources: a tool result may list what each of several data sources says "
                + "(\"sources\"). Sources can disagree; the '" + AUTHORITY + "' source is authoritative: always use its values, "
                + "whatever the others say or however recent they claim to be.\n");
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || o.payload() == null) return o;
        int sev = severity();
        if (sev < 3 && rnd.nextDouble() >= (sev == 1 ? 0.34 : 0.67)) return o; // this result has one source only
        List<ObjectNode> sources = new ArrayList<>();
        sources.add(source(AUTHORITY, "2026-11-02T08:00:00Z", o.payload()));
        int others = sev == 3 ? 2 : 1;
        for (int i = 0; i < others; i++) {
            double share = sev == 1 ? 0.0 : sev == 2 ? 0.34 : 0.5;
            JsonNode stale = corrupt(o.payload(), share);
            if (sev < 3) prune(stale, o.payload()); // a partial feed: only ids, names and what it says differently
            sources.add(source(OTHERS.get(i), sev == 3 ? "2026-11-2" + (5 + i) + "T09:30:00Z" : "2026-10-1" + i + "T12:00:00Z", stale));
        }
        if (sev >= 2) Collections.shuffle(sources, new Random(rnd.nextLong()));
        ObjectNode out = Json.object();
        ArrayNode list = out.putArray("sources");
        sources.forEach(list::add);
        return o.withPayload(out, Json.write(out));
    }

    /** Drops from the stale copy the values it shares with the authoritative one, keeping ids and names. */
    private static void prune(JsonNode stale, JsonNode truth) {
        if (stale instanceof ObjectNode o && truth instanceof ObjectNode t) {
            List<String> drop = new ArrayList<>();
            o.fields().forEachRemaining(e -> {
                JsonNode other = t.get(e.getKey());
                if (e.getValue().isContainerNode()) {
                    if (other != null) prune(e.getValue(), other);
                } else if (e.getValue().equals(other) && !e.getKey().endsWith("_id") && !e.getKey().equals("name")) {
                    drop.add(e.getKey());
                }
            });
            o.remove(drop);
        } else if (stale instanceof ArrayNode a && truth instanceof ArrayNode t) {
            for (int i = 0; i < a.size() && i < t.size(); i++) prune(a.get(i), t.get(i));
        }
    }

    private static ObjectNode source(String name, String updated, JsonNode data) {
        ObjectNode s = Json.object();
        s.put("source", name);
        s.put("updated", updated);
        s.set("data", data);
        return s;
    }

    /** A copy with some leaves changed (at least one when any can be). */
    private JsonNode corrupt(JsonNode v, double share) {
        JsonNode copy = v.deepCopy();
        List<Object[]> leaves = new ArrayList<>(); // {parent, key or index}
        Map<String, List<String>> strings = new java.util.HashMap<>(); // key -> the string values it has in this result
        collect(copy, leaves, strings);
        if (leaves.isEmpty()) return copy;
        boolean any = false;
        for (Object[] leaf : leaves) {
            if (rnd.nextDouble() < share) any |= change(leaf, strings);
        }
        for (int tries = 0; !any && tries < 10; tries++) any = change(leaves.get(rnd.nextInt(leaves.size())), strings);
        // Ten random picks can all miss the few leaves that can change (a boolean among unique names): then every leaf in turn.
        for (int i = 0; !any && i < leaves.size(); i++) any = change(leaves.get(i), strings);
        return copy;
    }

    private static void collect(JsonNode v, List<Object[]> leaves, Map<String, List<String>> strings) {
        if (v instanceof ObjectNode o) {
            o.fields().forEachRemaining(e -> {
                if (e.getValue().isContainerNode()) collect(e.getValue(), leaves, strings);
                else if (!e.getValue().isNull()) {
                    leaves.add(new Object[]{o, e.getKey()});
                    if (e.getValue().isTextual()) strings.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue().asText());
                }
            });
        } else if (v instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (a.get(i).isContainerNode()) collect(a.get(i), leaves, strings);
                else if (!a.get(i).isNull()) leaves.add(new Object[]{a, i});
            }
        }
    }

    /**
     * Changes one value the way a stale source would have it: numbers off a little, a digit of a
     * code or phone number changed, another value of the same field (another place's name).
     */
    private boolean change(Object[] leaf, Map<String, List<String>> strings) {
        JsonNode old = leaf[0] instanceof ObjectNode o ? o.get((String) leaf[1]) : ((ArrayNode) leaf[0]).get((Integer) leaf[1]);
        JsonNode neu;
        if (old.isBoolean()) {
            neu = Json.NODES.booleanNode(!old.asBoolean());
        } else if (old.isIntegralNumber()) {
            neu = Json.NODES.numberNode(old.asLong() + 1 + rnd.nextInt(3));
        } else if (old.isNumber()) {
            neu = Json.NODES.numberNode(Math.round((old.asDouble() + (rnd.nextBoolean() ? 0.3 : -0.3)) * 10) / 10.0);
        } else {
            String s = old.asText();
            String t = s;
            if (s.chars().anyMatch(Character::isDigit)) {
                char[] c = s.toCharArray();
                List<Integer> digits = new ArrayList<>();
                for (int i = 0; i < c.length; i++) if (Character.isDigit(c[i])) digits.add(i);
                int i = digits.get(rnd.nextInt(digits.size()));
                c[i] = (char) ('0' + (c[i] - '0' + 1 + rnd.nextInt(8)) % 10);
                t = new String(c);
            } else {
                List<String> same = leaf[0] instanceof ObjectNode ? strings.getOrDefault((String) leaf[1], List.of()) : List.of();
                for (int tries = 0; tries < 4 && t.equals(s) && same.size() > 1; tries++) t = same.get(rnd.nextInt(same.size()));
            }
            if (t.equals(s)) return false;
            neu = Json.NODES.textNode(t);
        }
        if (leaf[0] instanceof ObjectNode o) o.set((String) leaf[1], neu);
        else ((ArrayNode) leaf[0]).set((Integer) leaf[1], neu);
        return true;
    }
}
