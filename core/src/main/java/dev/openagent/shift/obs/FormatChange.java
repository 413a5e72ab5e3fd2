package dev.openagent.shift.obs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Allowance;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;
import dev.openagent.shift.Words;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * obs.format: tool results stop being JSON. {@code format} picks XML, YAML, key=value lines or
 * tables ({@code random}: one per episode). Severity 1 changes only the format; 2 also renames
 * keys to camelCase; 3 renames keys to synonyms ({@code place_id} -> {@code venueRef}). The
 * observation's payload is the renamed value, so it still describes exactly what the text says.
 * In text-command environments the prose observations are rendered the same way, sentence by sentence.
 */
public final class FormatChange extends ShiftEnv<FormatChange.Episode> {
    static final List<String> FORMATS = List.of("xml", "yaml", "kv", "table");
    public static final Shift SHIFT = new Shift("obs.format", Tier.INTERACTION, Dimension.O,
            "Tool results change format (XML, YAML, key=value text or a table) and, from severity 2, key names.",
            List.of(new ShiftParam("format", "xml, yaml, kv, table, or random (one per episode)", "random",
                    List.of("random", "xml", "yaml", "kv", "table")), Shift.SEVERITY),
            FormatChange::new).allowing(Allowance.KEY_SYNONYMS).seenAs(Sign.RESULT_FORMAT_CHANGED, Sign.RESULT_KEYS_CHANGED);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        String format;
        final Map<String, String> keyNames = new HashMap<>();
    }

    /** The environment's synonym table (severity 3), built at the first episode. */
    private Map<String, List<String>> synonyms;

    private FormatChange(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        String f = params.get("format");
        ep.format = f.equals("random") ? FORMATS.get(rnd.nextInt(FORMATS.size())) : f;
        if (severity() >= 3 && synonyms == null) synonyms = Words.table(facts().synonyms());
        return in;
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || o.payload() == null) return o;
        JsonNode v = severity() >= 2 ? Renderings.renameKeys(o.payload(), this::key) : o.payload();
        return o.withPayload(v, render(v));
    }

    /**
     * Text-command environments: the prose the environment says is split into its sentences (the
     * lines of a list), numbered and rendered in the episode's format; severity 3 also shuffles them.
     * What the prose means, and any payload behind it, is unchanged.
     */
    @Override
    protected Observation otherObservation(Observation o) {
        if (o.isError() || o.source() != Observation.Source.ENV || !textCommand() || o.text().isBlank()) return o;
        List<String> sentences = Renderings.sentences(o.text());
        if (severity() >= 3) java.util.Collections.shuffle(sentences, new java.util.Random(rnd.nextLong()));
        com.fasterxml.jackson.databind.node.ObjectNode v = dev.openagent.json.Json.object();
        com.fasterxml.jackson.databind.node.ArrayNode lines = v.putArray("observation");
        for (int i = 0; i < sentences.size(); i++) lines.addObject().put("line", i + 1).put("text", sentences.get(i));
        JsonNode shown = severity() >= 2 ? Renderings.renameKeys(v, this::key) : v;
        return o.withText(render(shown));
    }

    private String render(JsonNode v) {
        return switch (ep.format) {
            case "xml" -> Renderings.xml(v);
            case "yaml" -> Renderings.yaml(v);
            case "kv" -> Renderings.keyValues(v);
            default -> Renderings.table(v);
        };
    }

    /** The key's new name, the same for the whole episode. */
    private String key(String k) {
        return ep.keyNames.computeIfAbsent(k, x -> {
            String base = severity() >= 3 ? Words.synonymName(x, synonyms, 1.0, rnd) : x;
            String c = Texts.camel(base);
            if (c.isEmpty()) c = x;
            String unique = c;
            for (int i = 2; ep.keyNames.containsValue(unique); i++) unique = c + i;
            return unique;
        });
    }
}
