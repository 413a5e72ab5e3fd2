package dev.openagent.shift.tool;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.RenamingEnv;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Texts;
import dev.openagent.shift.Tier;
import dev.openagent.shift.Words;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * tool.schema-noise: tool names stay, their schemas change. Severity 1 reorders parameters and
 * rewords parameter descriptions; 2 also renames about half the parameters (camelCase or a
 * synonym); 3 renames every parameter and rewords the tool descriptions too.
 */
public final class SchemaNoise extends RenamingEnv {
    public static final Shift SHIFT = new Shift("tool.schema-noise", Tier.PERCEPTION, Dimension.A,
            "Parameter renames, reordering and reworded descriptions; tool names unchanged.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "commands have no parameter schemas to rename or reorder"), SchemaNoise::new).seenAs(Sign.PARAMETERS_CHANGED, Sign.DESCRIPTION_REWORDED);

    private static final List<String> PARAM_FORMS = List.of("%s", "Required value: %s", "%s (see the tool description)", "Input: %s");
    private static final List<String> TOOL_FORMS = List.of("Use this to do the following. %s", "%s (Service API.)", "Operation: %s");

    private SchemaNoise(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected List<Mapped> rename(List<ToolSpec> tools) {
        Map<String, List<String>> table = Words.table(facts().synonyms());
        List<Mapped> out = new ArrayList<>();
        for (ToolSpec t : tools) {
            List<String> ps = Schemas.params(t.parameters());
            Set<String> taken = new HashSet<>(ps);
            Map<String, String> innerToOuter = new LinkedHashMap<>();
            for (String p : ps) {
                String q = p;
                if (severity() == 3 || (severity() == 2 && rnd.nextBoolean())) {
                    String candidate = rnd.nextBoolean() && p.contains("_") ? Texts.camel(p) : Words.synonymName(p, table, 0.0, rnd);
                    if (!candidate.equals(p)) q = Words.unique(candidate, taken);
                }
                innerToOuter.put(p, q);
            }
            List<String> order = new ArrayList<>(innerToOuter.values());
            Collections.shuffle(order, new Random(rnd.nextLong()));
            ObjectNode schema = Schemas.rename(t.parameters(), innerToOuter, order);
            for (String q : order) {
                String d = schema.path("properties").path(q).path("description").asText("");
                String form = PARAM_FORMS.get(1 + rnd.nextInt(PARAM_FORMS.size() - 1));
                // Rewording no description gives none (a bare tool's parameters stay known by their names).
                if (!d.isBlank()) schema = Schemas.describe(schema, q, String.format(form, d));
            }
            String description = severity() >= 3 ? String.format(TOOL_FORMS.get(rnd.nextInt(TOOL_FORMS.size())), t.description()) : t.description();
            if (t.description().isBlank()) description = "";
            out.add(Mapped.of(t, new ToolSpec(t.name(), description, schema), innerToOuter));
        }
        return out;
    }
}
