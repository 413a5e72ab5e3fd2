package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the watch learns of a server's traffic over a window of calls: per tool the formats of its results, their
 * key paths, the longest list, the kinds of wording (errors by kind, retirements, notices), page tokens,
 * instructions, malformed results, and its latency. Not thread-safe: the watch serialises calls to it.
 */
public final class Traffic {
    /** What was seen of one tool. */
    public static final class Tool {
        int calls, errors, malformed, paged, instructs, largest;
        final Map<Reading.Format, Integer> formats = new EnumMap<>(Reading.Format.class);
        final Map<Reading.Kind, Integer> kinds = new EnumMap<>(Reading.Kind.class);
        final Set<String> keys = new TreeSet<>();
        final List<Double> millis = new ArrayList<>();

        void add(Reading r, double ms) {
            calls++;
            if (r.error()) errors++;
            if (r.malformed()) malformed++;
            if (r.paged()) paged++;
            if (r.instructs()) instructs++;
            largest = Math.max(largest, r.largest());
            formats.merge(r.format(), 1, Integer::sum);
            kinds.merge(r.kind(), 1, Integer::sum);
            keys.addAll(r.keys());
            if (millis.size() < 10_000) millis.add(ms);
        }

        public int calls() { return calls; }

        public boolean sawFormat(Reading.Format f) { return formats.getOrDefault(f, 0) > 0; }

        public boolean knows(String keyPath) { return keys.contains(keyPath); }
    }

    private final Map<String, Tool> tools = new LinkedHashMap<>();

    /** Learns one call of {@code tool}. */
    public void add(String tool, Reading reading, double millis) {
        tools.computeIfAbsent(tool, t -> new Tool()).add(reading, millis);
    }

    public Tool tool(String name) { return tools.get(name); }

    public int calls() { return tools.values().stream().mapToInt(t -> t.calls).sum(); }

    /** How many calls, of every tool, had this property. */
    public int count(java.util.function.ToIntFunction<Tool> of) { return tools.values().stream().mapToInt(of).sum(); }

    public int kind(Reading.Kind k) { return count(t -> t.kinds.getOrDefault(k, 0)); }

    public int otherErrors() { return count(t -> t.errors - t.kinds.entrySet().stream().filter(e -> e.getKey() != Reading.Kind.PLAIN).mapToInt(Map.Entry::getValue).sum()); }

    public int malformed() { return count(t -> t.malformed); }

    public int paged() { return count(t -> t.paged); }

    public int instructs() { return count(t -> t.instructs); }

    public ObjectNode toJson() {
        ObjectNode out = Json.object("calls", calls());
        ObjectNode per = out.putObject("tools");
        tools.forEach((name, t) -> {
            ObjectNode o = per.putObject(name);
            o.put("calls", t.calls);
            o.put("errors", t.errors);
            ObjectNode f = o.putObject("formats");
            t.formats.forEach((k, v) -> f.put(k.name(), v));
            ObjectNode k = o.putObject("kinds");
            t.kinds.forEach((kk, v) -> k.put(kk.name(), v));
            o.put("malformed", t.malformed);
            o.put("paged", t.paged);
            o.put("instructs", t.instructs);
            o.put("largest_list", t.largest);
            t.keys.forEach(o.putArray("keys")::add);
            List<Double> sorted = t.millis.stream().sorted().toList();
            ObjectNode lat = o.putObject("latency_ms");
            if (!sorted.isEmpty()) {
                lat.put("p50", sorted.get(sorted.size() / 2));
                lat.put("p95", sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(sorted.size() * 0.95))));
                lat.put("max", sorted.getLast());
            }
        });
        return out;
    }

    /** @throws IllegalArgumentException when the JSON is not what {@link #toJson} writes */
    public static Traffic of(JsonNode json) {
        Traffic out = new Traffic();
        if (!json.path("tools").isObject()) throw new UserInputException("its \"traffic\" has no \"tools\" object");
        json.path("tools").properties().forEach(e -> {
            JsonNode o = e.getValue();
            Tool t = new Tool();
            t.calls = o.path("calls").asInt();
            t.errors = o.path("errors").asInt();
            t.malformed = o.path("malformed").asInt();
            t.paged = o.path("paged").asInt();
            t.instructs = o.path("instructs").asInt();
            t.largest = o.path("largest_list").asInt();
            o.path("formats").properties().forEach(f -> t.formats.put(Reading.Format.valueOf(f.getKey()), f.getValue().asInt()));
            o.path("kinds").properties().forEach(k -> t.kinds.put(Reading.Kind.valueOf(k.getKey()), k.getValue().asInt()));
            o.path("keys").forEach(k -> t.keys.add(k.asText()));
            out.tools.put(e.getKey(), t);
        });
        return out;
    }
}
