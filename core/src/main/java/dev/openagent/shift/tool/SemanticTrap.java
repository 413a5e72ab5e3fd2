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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * tool.semantic-trap: misleading names, truthful descriptions. Tools trade names with each other,
 * so the tool called {@code make_reservation} may be the one that looks up opening hours:
 * severity 1 rotates the names of three tools, 2 of every tool; 3 also rotates parameter names
 * within each tool (the description under a parameter name stays that of the real parameter).
 */
public final class SemanticTrap extends RenamingEnv {
    public static final Shift SHIFT = new Shift("tool.semantic-trap", Tier.PERCEPTION, Dimension.A,
            "Misleading names: tools (and at severity 3 parameters) trade names; only the descriptions are truthful.",
            List.of(Shift.SEVERITY), SemanticTrap::new).seenAs(Sign.TOOL_NAMES_TRADED, Sign.PARAMETERS_CHANGED);

    private SemanticTrap(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected List<Mapped> rename(List<ToolSpec> tools) {
        int n = tools.size();
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        if (n >= 2) {
            if (severity() == 1) {
                int k = Math.min(3, n);
                int[] pick = sample(n, k, rnd);
                for (int i = 0; i < k; i++) perm[pick[i]] = pick[(i + 1) % k];
            } else {
                derange(perm, rnd);
            }
        }
        List<Mapped> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ToolSpec t = tools.get(i);
            String name = tools.get(perm[i]).name();
            List<String> ps = Schemas.params(t.parameters());
            int[] pp = new int[ps.size()];
            for (int j = 0; j < pp.length; j++) pp[j] = j;
            if (severity() >= 3 && pp.length >= 2) derange(pp, rnd);
            Map<String, String> innerToOuter = new LinkedHashMap<>();
            for (int j = 0; j < pp.length; j++) innerToOuter.put(ps.get(j), ps.get(pp[j]));
            out.add(Mapped.of(t, new ToolSpec(name, t.description(), Schemas.rename(t.parameters(), innerToOuter, null)), innerToOuter));
        }
        return out;
    }

    private static int[] sample(int n, int k, SplittableRandom rnd) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) all.add(i);
        int[] out = new int[k];
        for (int i = 0; i < k; i++) out[i] = all.remove(rnd.nextInt(all.size()));
        return out;
    }

    /** A random permutation without fixed points. */
    static void derange(int[] a, SplittableRandom rnd) {
        int n = a.length;
        do {
            for (int i = 0; i < n; i++) a[i] = i;
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
            }
        } while (hasFixedPoint(a));
    }

    private static boolean hasFixedPoint(int[] a) {
        for (int i = 0; i < a.length; i++) if (a[i] == i) return true;
        return false;
    }
}
