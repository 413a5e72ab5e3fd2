package dev.openagent.shift.domain;

import dev.openagent.UserInputException;
import dev.openagent.registry.Catalog;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Start;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
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
 * trained on, with that environment's tools (or commands), rules and observations ({@code to=ENV},
 * any other registered environment, whatever its interface: poi -> household puts a function-call
 * agent in front of text commands; {@code auto} takes the first other environment with the same
 * interface, else the first other one). The wrapped environment is replaced by a fresh instance of
 * the target; the spec stack records the target as its environment, and the shifts composed above
 * this one act on (and are judged applicable to) the target. Not applicable when the target does
 * not exist or is the source itself.
 */
public final class DomainTransfer extends ShiftEnv<Void> {
    /** The catalog entry over the built-in environments; {@link Shift#in} puts it over a {@link Catalog}'s (loaded ones too). */
    public static final Shift SHIFT = shift(Environments::find, Environments::ids);

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
        self[0] = new Shift("domain.transfer", Tier.INTERNALIZATION, Dimension.D,
                "Tasks from an environment the agent was never trained on (to=ENV, any other environment, also of another interface; "
                        + "auto: the first other environment with the same interface, else the first other one).",
                List.of(new ShiftParam("to", "target environment id, or auto", "auto", List.of())),
                info -> target(info, "auto", find, ids).isPresent() ? Optional.empty() : Optional.of(whyNot(info, "auto", ids)),
                (inner, params) -> {
                    String to = params.getOrDefault("to", "auto");
                    Environment target = target(inner.info(), to, find, ids)
                            .orElseThrow(() -> new UserInputException("domain.transfer: " + whyNot(inner.info(), to, ids)));
                    return new DomainTransfer(target.create(), self[0], params);
                },
                (env, params) -> target(env, params.getOrDefault("to", "auto"), find, ids).map(Environment::info).orElse(env))
                .resolvedIn(catalog -> shift(catalog::find, catalog::ids));
        return self[0];
    }

    private static Optional<Environment> target(EnvironmentInfo source, String to, Function<String, Optional<Environment>> find,
                                                Supplier<List<String>> ids) {
        if (!to.equals("auto")) return to.equals(source.id()) ? Optional.empty() : find.apply(to);
        Optional<Environment> other = Optional.empty();
        for (String id : ids.get()) {
            if (id.equals(source.id())) continue;
            Optional<Environment> e = find.apply(id);
            if (e.isPresent() && e.get().info().iface() == source.iface()) return e;
            if (other.isEmpty()) other = e;
        }
        return other;
    }

    private static String whyNot(EnvironmentInfo source, String to, Supplier<List<String>> ids) {
        if (to.equals("auto")) return "no other environment is registered besides " + source.id();
        if (to.equals(source.id())) return "the target '" + to + "' is the source environment itself";
        return "no environment '" + to + "' (known: " + String.join(", ", ids.get()) + ")";
    }

    @Override
    protected Start begin(Start in) { return in; }
}
