package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.Sign;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One change the watch saw, named in the catalog's terms: its sign, the shifts that show that sign (the nearest
 * first: those whose most telling sign it is), and the evidence before and after.
 *
 * @param kind    the sign as a word ({@code tool-removed}), or for what no shift changes ({@code resource-added},
 *                {@code prompt-changed}) that
 * @param sign    the sign, or null for a change outside the catalog (resources, prompts)
 * @param tool    the tool it concerns (its name before; an added tool's name), or the resource or prompt
 * @param detail  one line saying what changed
 * @param before  the evidence before (null: there was nothing)
 * @param after   the evidence after (null: there is nothing)
 * @param params  parameters of the nearest shift the evidence fixes ({@code format=xml}), else empty
 */
public record Change(String kind, Sign sign, String tool, String detail, JsonNode before, JsonNode after, Map<String, String> params) {
    public Change {
        params = Map.copyOf(params);
    }

    static Change of(Sign sign, String tool, String detail, JsonNode before, JsonNode after) {
        return new Change(kindOf(sign), sign, tool, detail, before, after, Map.of());
    }

    /** A change no catalog shift makes (a resource or a prompt came, went or changed). */
    static Change outside(String kind, String item, String detail, JsonNode before, JsonNode after) {
        return new Change(kind, null, item, detail, before, after, Map.of());
    }

    public static String kindOf(Sign sign) { return sign.name().toLowerCase(Locale.ROOT).replace('_', '-'); }

    /**
     * The shifts that show this change's sign, nearest first: by where the sign stands among each shift's own
     * ({@link Shift#signs()}: its most telling sign first), then in catalog order.
     */
    public List<Shift> shifts() {
        if (sign == null) return List.of();
        List<Shift> out = new ArrayList<>(ShiftCatalog.all().stream().filter(s -> s.signs().contains(sign)).toList());
        out.sort(Comparator.comparingInt(s -> s.signs().indexOf(sign)));
        return out;
    }

    /** The spec that reproduces the change under {@code eval --shift}: the nearest shift, with the parameters the evidence fixes. */
    public String spec() {
        List<Shift> near = shifts();
        if (near.isEmpty()) return null;
        String id = near.getFirst().id();
        if (params.isEmpty()) return id;
        return id + ":" + new TreeMap<>(params).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    public ObjectNode toJson() {
        List<Shift> near = shifts();
        ObjectNode o = Json.object("kind", kind, "tool", tool);
        if (near.isEmpty()) {
            o.putNull("tier");
            o.putNull("dimension");
            o.putNull("shift");
        } else {
            o.put("tier", near.getFirst().tier().id());
            o.put("dimension", near.getFirst().dimension().name());
            o.put("shift", spec());
        }
        ArrayNode ranked = o.putArray("shifts");
        near.forEach(s -> ranked.add(s.id()));
        o.put("detail", detail);
        ObjectNode evidence = o.putObject("evidence");
        evidence.set("before", before == null ? Json.NODES.nullNode() : before);
        evidence.set("after", after == null ? Json.NODES.nullNode() : after);
        if (near.isEmpty()) o.putNull("reproduce");
        else o.put("reproduce", "openagent eval --env ENV_FILE --shift '" + spec() + "'");
        return o;
    }

    /** One line: the kind, what it concerns, and the nearest shift. */
    public String line() {
        List<Shift> near = shifts();
        String named = near.isEmpty() ? "outside the catalog"
                : near.getFirst().tier().id() + ", " + spec() + (near.size() > 1 ? " (or " + near.stream().skip(1).map(Shift::id).collect(Collectors.joining(", ")) + ")" : "");
        return kind + "  " + tool + ": " + detail + "  [" + named + "]";
    }
}
