package dev.openagent.frontier;

import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A shift (or a composition a user named) on one environment, as the frontier climbs it: its rungs in order of
 * severity, weakest first. A shift with a {@code severity} parameter has a rung per positive severity (1, 2, 3;
 * {@code interface.action-list}'s 0 is no shift); a shift without one has a single rung, level 1; a spec that sets
 * a severity itself ({@code query.noise:severity=3}) is climbed at that severity alone. The other parameters stay
 * as the spec gives them (defaults filled in).
 *
 * @param name the spec's stack at its default severity, as eval labels it ({@code query.noise}, {@code obs.format:format=xml})
 * @param tier the tier id of a single-tier stack, {@code mixed} otherwise
 */
public record Ladder(String env, String name, String tier, List<Rung> rungs) {
    public static final String SEVERITY = "severity";

    /**
     * One step of a ladder.
     *
     * @param level    the severity it runs at, or 1 for a shift without one
     * @param severity whether the stack has a severity at all (the level is meaningful)
     */
    public record Rung(int level, boolean severity, ShiftStack stack) {
        public String label() { return stack.label(); }
    }

    public Ladder {
        if (rungs.isEmpty()) throw new IllegalArgumentException("a ladder has at least one rung");
        rungs = List.copyOf(rungs);
    }

    public Rung top() { return rungs.getLast(); }

    /**
     * The ladders of a {@code --shift} spec on one environment: each condition it expands to ({@code all} and
     * {@code tier:} expand to each shift), once; {@code none} adds nothing (the static condition is always run).
     */
    public static List<Ladder> of(String spec, String env) {
        Map<String, Ladder> out = new LinkedHashMap<>();
        for (String part : spec.split(";", -1)) {
            boolean fixed = part.contains(SEVERITY + "=");
            for (ShiftStack stack : ShiftSpec.expand(part)) {
                if (stack.isStatic()) continue;
                Ladder l = of(env, stack, fixed);
                out.putIfAbsent(l.name(), l);
            }
        }
        return List.copyOf(out.values());
    }

    /** The ladder of one stack: every layer with a severity moves together (rung k runs each at its k-th severity). */
    static Ladder of(String env, ShiftStack stack, boolean fixed) {
        Tier t = stack.tier();
        String tier = t == null ? "mixed" : t.id();
        List<Integer> levels = fixed ? List.of() : levels(stack);
        if (levels.isEmpty()) {
            boolean has = stack.layers().stream().anyMatch(l -> l.params().containsKey(SEVERITY));
            int level = has ? stack.layers().stream().filter(l -> l.params().containsKey(SEVERITY))
                    .mapToInt(l -> Integer.parseInt(l.params().get(SEVERITY))).max().orElse(1) : 1;
            return new Ladder(env, stack.label(), tier, List.of(new Rung(level, has, stack)));
        }
        List<Rung> rungs = new ArrayList<>();
        for (int level : levels) rungs.add(new Rung(level, true, at(stack, level)));
        return new Ladder(env, at(stack, defaultLevel(stack, levels)).label(), tier, rungs);
    }

    /** The positive severities every layer with a severity takes (their intersection), in order. */
    private static List<Integer> levels(ShiftStack stack) {
        TreeSet<Integer> common = null;
        for (ShiftStack.Layer l : stack.layers()) {
            ShiftParam p = l.shift().params().stream().filter(x -> x.name().equals(SEVERITY)).findFirst().orElse(null);
            if (p == null) continue;
            TreeSet<Integer> mine = new TreeSet<>();
            for (String v : p.values()) {
                int level = Integer.parseInt(v);
                if (level > 0) mine.add(level);
            }
            if (common == null) common = mine;
            else common.retainAll(mine);
        }
        return common == null ? List.of() : List.copyOf(common);
    }

    private static int defaultLevel(ShiftStack stack, List<Integer> levels) {
        for (ShiftStack.Layer l : stack.layers()) {
            for (ShiftParam p : l.shift().params()) {
                if (p.name().equals(SEVERITY) && levels.contains(Integer.parseInt(p.defaultValue()))) return Integer.parseInt(p.defaultValue());
            }
        }
        return levels.getFirst();
    }

    /** The stack with every layer that has a severity at this level. */
    static ShiftStack at(ShiftStack stack, int level) {
        List<ShiftStack.Layer> layers = new ArrayList<>();
        for (ShiftStack.Layer l : stack.layers()) {
            if (!l.params().containsKey(SEVERITY)) {
                layers.add(l);
                continue;
            }
            Map<String, String> params = new LinkedHashMap<>(l.params());
            params.put(SEVERITY, Integer.toString(level));
            layers.add(new ShiftStack.Layer(l.shift(), params));
        }
        return new ShiftStack(layers);
    }
}
