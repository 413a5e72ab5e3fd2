package dev.openagent.shift.internalization;

import dev.openagent.envs.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftDef;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.Tier;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * domain.transfer: the agent gets tasks from another registered environment than the one it was
 * trained on, with that environment's tools, rules and observations ({@code to=ENV}; {@code auto}
 * takes the first other environment with the same interface). The wrapped environment is replaced
 * by a fresh instance of the target; the spec stack records the target as its environment.
 * Not applicable when the target does not exist or is the source itself.
 */
public final class DomainTransfer extends ShiftEnv {
    public static final Shift SHIFT = shift(id -> Environments.ids().contains(id) ? Optional.of(Environments.get(id)) : Optional.empty(),
            Environments::ids);

    private DomainTransfer(Env target, Shift shift, Map<String, String> params) {
        super(target, shift, params);
    }

    /**
     * The catalog entry over a registry of environments (tests use their own). Applicability is
     * judged for {@code to=auto}; an explicit target that does not exist or is the source is
     * refused when the shift is applied.
     */
    public static Shift shift(Function<String, Optional<Environment>> find, Supplier<List<String>> ids) {
        Shift[] self = new Shift[1];
        self[0] = new ShiftDef("domain.transfer", Tier.INTERNALIZATION, Dimension.D, 0,
                "Tasks from an environment the agent was never trained on (to=ENV; auto: the first other environment with the same interface).",
                List.of(new ShiftParam("to", "target environment id, or auto", "auto", List.of())),
                info -> target(info, "auto", find, ids).isPresent() ? Optional.empty() : Optional.of(whyNot(info, "auto", ids)),
                (inner, params) -> {
                    String to = params.getOrDefault("to", "auto");
                    Environment target = target(inner.info(), to, find, ids)
                            .orElseThrow(() -> new IllegalArgumentException("domain.transfer: " + whyNot(inner.info(), to, ids)));
                    return new DomainTransfer(target.create(), self[0], params);
                });
        return self[0];
    }

    private static Optional<Environment> target(EnvironmentInfo source, String to, Function<String, Optional<Environment>> find,
                                                Supplier<List<String>> ids) {
        if (!to.equals("auto")) return to.equals(source.id()) ? Optional.empty() : find.apply(to);
        for (String id : ids.get()) {
            if (id.equals(source.id())) continue;
            Optional<Environment> e = find.apply(id);
            if (e.isPresent() && e.get().info().iface() == source.iface()) return e;
        }
        return Optional.empty();
    }

    private static String whyNot(EnvironmentInfo source, String to, Supplier<List<String>> ids) {
        if (to.equals("auto")) return "no other " + source.iface().id() + " environment is registered besides " + source.id();
        if (to.equals(source.id())) return "the target '" + to + "' is the source environment itself";
        return "no environment '" + to + "' (known: " + String.join(", ", ids.get()) + ")";
    }

    @Override
    protected Start begin(Start in) { return in; }
}
