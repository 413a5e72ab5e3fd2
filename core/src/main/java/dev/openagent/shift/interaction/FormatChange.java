package dev.openagent.shift.interaction;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.ShiftDef;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Shift;
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
 */
public final class FormatChange extends ShiftEnv {
    static final List<String> FORMATS = List.of("xml", "yaml", "kv", "table");
    public static final Shift SHIFT = new ShiftDef("obs.format", Tier.INTERACTION, Dimension.O, 70,
            "Tool results change format (XML, YAML, key=value text or a table) and, from severity 2, key names.",
            List.of(new ShiftParam("format", "xml, yaml, kv, table, or random (one per episode)", "random",
                    List.of("random", "xml", "yaml", "kv", "table")), ShiftDef.SEVERITY),
            info -> ShiftDef.needsTools(info, "observations are already prose"), FormatChange::new);

    private String format;
    private final Map<String, String> keyNames = new HashMap<>();
    private Map<String, List<String>> synonyms;

    private FormatChange(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Start begin(Start in) {
        String f = params.get("format");
        format = f.equals("random") ? FORMATS.get(rnd.nextInt(FORMATS.size())) : f;
        keyNames.clear();
        if (severity() >= 3 && synonyms == null) synonyms = Words.table(hooks().hooks().synonyms());
        return in;
    }

    @Override
    protected Observation observation(Observation o) {
        if (o.isError() || o.payload() == null) return o;
        JsonNode v = severity() >= 2 ? Renderings.renameKeys(o.payload(), this::key) : o.payload();
        String text = switch (format) {
            case "xml" -> Renderings.xml(v);
            case "yaml" -> Renderings.yaml(v);
            case "kv" -> Renderings.keyValues(v);
            default -> Renderings.table(v);
        };
        return o.withPayload(v, text);
    }

    /** The key's new name, the same for the whole episode. */
    private String key(String k) {
        return keyNames.computeIfAbsent(k, x -> {
            String base = severity() >= 3 ? Words.synonymName(x, synonyms, 1.0, rnd) : x;
            String c = Texts.camel(base);
            if (c.isEmpty()) c = x;
            String unique = c;
            for (int i = 2; keyNames.containsValue(unique); i++) unique = c + i;
            return unique;
        });
    }
}
