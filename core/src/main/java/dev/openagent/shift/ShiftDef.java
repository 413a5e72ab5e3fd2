package dev.openagent.shift;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Interface;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;

/** The catalog facts of a shift and the factory of its wrapper; each shift class holds one as {@code SHIFT}. */
public record ShiftDef(String id, Tier tier, Dimension dimension, int order, String description, List<ShiftParam> params,
                       Function<EnvironmentInfo, Optional<String>> applicability,
                       BiFunction<Env, Map<String, String>, Env> factory) implements Shift {

    /** The severity parameter every shift with a magnitude takes. */
    public static final ShiftParam SEVERITY = new ShiftParam("severity", "1 slight, 2 moderate, 3 heavy", "2", List.of("1", "2", "3"));

    public ShiftDef {
        params = List.copyOf(params);
    }

    public ShiftDef(String id, Tier tier, Dimension dimension, int order, String description, List<ShiftParam> params,
                    BiFunction<Env, Map<String, String>, Env> factory) {
        this(id, tier, dimension, order, description, params, info -> Optional.empty(), factory);
    }

    @Override
    public Optional<String> notApplicable(EnvironmentInfo env) { return applicability.apply(env); }

    @Override
    public Env wrap(Env inner, Map<String, String> params) { return factory.apply(inner, params); }

    /** Applicability of shifts that need a tool list or JSON observations: not text-command environments, for this reason. */
    public static Optional<String> needsTools(EnvironmentInfo env, String why) {
        return env.iface() == Interface.TEXT_COMMAND ? Optional.of("not for text-command environments: " + why) : Optional.empty();
    }
}
