package dev.openagent.shift.tool;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.RenamingEnv;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;
import dev.openagent.shift.Words;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tool.semantic-rename: tools get synonym names ({@code search_places} -> {@code find_venues}):
 * severity 1 swaps one word per tool name, 2 about half the words and one word of about half the
 * parameters, 3 every word of tools and parameters. Synonyms come from a generic table plus the
 * environment's own vocabulary ({@code EnvFacts.synonyms()}).
 */
public final class SemanticRename extends RenamingEnv {
    public static final Shift SHIFT = new Shift("tool.semantic-rename", Tier.PERCEPTION, Dimension.A,
            "Tools and parameters get synonym names (search_places -> find_venues); behaviour and descriptions unchanged.",
            List.of(Shift.SEVERITY), SemanticRename::new).seenAs(Sign.TOOL_RENAMED_BY_WORDS, Sign.PARAMETERS_CHANGED);

    private SemanticRename(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected List<Mapped> rename(List<ToolSpec> tools) {
        Map<String, List<String>> table = Words.table(facts().synonyms());
        double p = switch (severity()) { case 1 -> 0.0; case 2 -> 0.5; default -> 1.0; };
        Set<String> taken = takenNames(tools);
        List<Mapped> out = new ArrayList<>();
        for (ToolSpec t : tools) {
            String name = Words.synonymName(t.name(), table, p, rnd);
            name = Words.unique(name.equals(t.name()) ? t.name() + "_v2" : name, taken);
            Map<String, String> innerToOuter = new LinkedHashMap<>();
            Set<String> paramNames = new HashSet<>(Schemas.params(t.parameters()));
            for (String q : Schemas.params(t.parameters())) {
                String r = q;
                if (severity() == 3 || (severity() == 2 && rnd.nextBoolean())) {
                    r = Words.synonymName(q, table, severity() == 3 ? 1.0 : 0.0, rnd);
                    if (!r.equals(q)) r = Words.unique(r, paramNames);
                }
                innerToOuter.put(q, r);
            }
            out.add(Mapped.of(t, new ToolSpec(name, t.description(), Schemas.rename(t.parameters(), innerToOuter, null)), innerToOuter));
        }
        return out;
    }
}
