package dev.openagent.shift.tool;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.RenamingEnv;
import dev.openagent.shift.Schemas;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * tool.identity-erasure: tool names become opaque ids ({@code fn_3k9q}); descriptions stay true.
 * Severity 2 also makes parameter names opaque ({@code p1}, {@code p2}: their descriptions stay);
 * severity 3 also shuffles the order of tools and parameters.
 */
public final class IdentityErasure extends RenamingEnv {
    public static final Shift SHIFT = new Shift("tool.identity-erasure", Tier.PERCEPTION, Dimension.A,
            "Tool names become opaque ids (and, from severity 2, parameter names too); descriptions stay true.",
            List.of(Shift.SEVERITY), IdentityErasure::new).seenAs(Sign.TOOL_RENAMED_OPAQUE, Sign.PARAMETERS_CHANGED);

    private static final String ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

    private IdentityErasure(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected List<Mapped> rename(List<ToolSpec> tools) {
        List<Mapped> out = renameEach(tools, this::erased);
        if (severity() >= 3) Collections.shuffle(out, new java.util.Random(rnd.nextLong()));
        return out;
    }

    private Mapped erased(ToolSpec t, Set<String> taken) {
        String id;
        do {
            StringBuilder sb = new StringBuilder("fn_");
            for (int i = 0; i < 4; i++) sb.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
            id = sb.toString();
        } while (!taken.add(id));
        List<String> names = Schemas.params(t.parameters());
        Map<String, String> innerToOuter = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            String q = severity() >= 2 ? "p" + (i + 1) : names.get(i);
            innerToOuter.put(names.get(i), q);
            order.add(q);
        }
        if (severity() >= 3) Collections.shuffle(order, new java.util.Random(rnd.nextLong()));
        return Mapped.of(t, new ToolSpec(id, t.description(), Schemas.rename(t.parameters(), innerToOuter, order)), innerToOuter);
    }
}
