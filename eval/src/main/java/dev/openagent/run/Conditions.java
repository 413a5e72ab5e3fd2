package dev.openagent.run;

import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Environment;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The experimental conditions of a {@code --shift} spec for one environment: the stacks that apply
 * and, apart, those that do not (label -> reason). With {@code pairs}, every two distinct shifts of
 * the spec are also composed.
 */
public record Conditions(List<ShiftStack> stacks, Map<String, String> skipped) {
    public Conditions {
        stacks = List.copyOf(stacks);
        skipped = Map.copyOf(skipped);
    }

    /** The conditions over the built-in environments (a {@code domain.transfer} reaches those). */
    public static Conditions of(String spec, Environment env, boolean pairs) {
        return of(ShiftSpec.expand(spec), env, pairs);
    }

    /** The conditions with every stack resolved in {@code catalog} (a {@code domain.transfer} reaches its environments). */
    public static Conditions of(Catalog catalog, String spec, Environment env, boolean pairs) {
        return of(ShiftSpec.expand(spec).stream().map(s -> s.in(catalog)).toList(), env, pairs);
    }

    private static Conditions of(List<ShiftStack> expanded, Environment env, boolean pairs) {
        List<ShiftStack> all = new ArrayList<>(expanded);
        if (pairs) {
            List<ShiftStack> singles = all.stream().filter(s -> s.layers().size() == 1).toList();
            for (int i = 0; i < singles.size(); i++) {
                for (int j = i + 1; j < singles.size(); j++) {
                    var a = singles.get(i).layers().getFirst();
                    var b = singles.get(j).layers().getFirst();
                    if (a.shift().id().equals(b.shift().id())) continue;
                    all.add(new ShiftStack(List.of(a, b)));
                }
            }
        }
        List<ShiftStack> stacks = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (ShiftStack s : all) {
            var why = notApplicable(s, env);
            if (why.isPresent()) skipped.put(s.label(), why.get());
            else stacks.add(s);
        }
        return new Conditions(stacks, skipped);
    }

    /** Why a stack cannot run on an environment: a shift's own reason, or a fact the environment lacks for one of its shifts. */
    public static Optional<String> notApplicable(ShiftStack s, Environment env) {
        Optional<String> why = s.notApplicable(env.info());
        for (var l : s.layers()) {
            if (why.isPresent()) break;
            why = env.notApplicable(l.shift().id()).map(w -> l.shift().id() + ": " + w);
        }
        return why;
    }
}
