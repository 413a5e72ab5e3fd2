package dev.openagent.shift;

import dev.openagent.registry.Catalog;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Interface;

import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A catalog entry: one kind of open-world shift, its catalog facts beside the factory of its wrapper.
 * {@link #wrap} puts it around an environment as an {@link dev.openagent.sandbox.EnvWrapper} that
 * records itself in the spec stack. Each shift class holds its entry as {@code SHIFT}; where it sits in
 * a composed stack is {@link ShiftCatalog}'s composition order.
 *
 * @param id               the public id, for example {@code tool.semantic-rename}
 * @param params           accepted parameters; every shift with a magnitude has {@code severity} (1..3)
 * @param applicability    empty when the shift applies to the environment, else the reason it does not
 * @param factory          the wrapper, given parameters already validated and completed with defaults
 * @param environmentAfter the environment the layers above this one act on: the same one, except for a
 *                         shift that swaps in another environment ({@code domain.transfer})
 * @param allowances       knowledge from outside the episode the shift needs of an agent ({@link Allowance}); the
 *                         view-only solver allows exactly these transformations
 * @param signs            what the shift looks like from outside, in a server's tool list and traffic, its most
 *                         telling sign first (empty: it shows none there, as a shift of the task); {@link #seenAs}
 * @param inCatalog        the same shift over the environments of a {@link Catalog}, for a shift that looks environments
 *                         up ({@code domain.transfer}); null for the others ({@link #in})
 */
public record Shift(String id, Tier tier, Dimension dimension, String description, List<ShiftParam> params,
                    Function<EnvironmentInfo, Optional<String>> applicability,
                    BiFunction<Env, Map<String, String>, Env> factory,
                    BiFunction<EnvironmentInfo, Map<String, String>, EnvironmentInfo> environmentAfter,
                    Set<Allowance> allowances, List<Sign> signs, Function<Catalog, Shift> inCatalog) {

    /** The severity parameter every shift with a magnitude takes. */
    public static final ShiftParam SEVERITY = new ShiftParam("severity", "1 slight, 2 moderate, 3 heavy", "2", List.of("1", "2", "3"));

    /**
     * Severity as a word in a spec ({@code tool.name-noise:heavy} is {@code tool.name-noise:severity=3}): the words of
     * {@link #SEVERITY}'s description, and RoTBench's {@code medium} for 2. {@link ShiftSpec#canonical} writes them out.
     */
    public static final Map<String, String> SEVERITY_WORDS = Map.of("slight", "1", "moderate", "2", "medium", "2", "heavy", "3");

    public Shift {
        params = List.copyOf(params);
        allowances = allowances.isEmpty() ? Set.of() : Collections.unmodifiableSet(EnumSet.copyOf(allowances));
        signs = List.copyOf(signs);
    }

    /** A shift that swaps in another environment for the layers above it. */
    public Shift(String id, Tier tier, Dimension dimension, String description, List<ShiftParam> params,
                 Function<EnvironmentInfo, Optional<String>> applicability, BiFunction<Env, Map<String, String>, Env> factory,
                 BiFunction<EnvironmentInfo, Map<String, String>, EnvironmentInfo> environmentAfter) {
        this(id, tier, dimension, description, params, applicability, factory, environmentAfter, Set.of(), List.of(), null);
    }

    /** The same shift, declaring that it needs these transformations of an agent. */
    public Shift allowing(Allowance... needed) {
        return new Shift(id, tier, dimension, description, params, applicability, factory, environmentAfter, Set.of(needed), signs, inCatalog);
    }

    /** The same shift, showing these signs from outside, its most telling first. */
    public Shift seenAs(Sign... shown) {
        return new Shift(id, tier, dimension, description, params, applicability, factory, environmentAfter, allowances, List.of(shown), inCatalog);
    }

    /** The same shift, which {@link #in} puts over a catalog's environments with {@code over}. */
    public Shift resolvedIn(Function<Catalog, Shift> over) {
        return new Shift(id, tier, dimension, description, params, applicability, factory, environmentAfter, allowances, signs, over);
    }

    /** A shift that applies where {@code applicability} says and leaves the environment as it is. */
    public Shift(String id, Tier tier, Dimension dimension, String description, List<ShiftParam> params,
                 Function<EnvironmentInfo, Optional<String>> applicability, BiFunction<Env, Map<String, String>, Env> factory) {
        this(id, tier, dimension, description, params, applicability, factory, (env, p) -> env);
    }

    /** A shift that applies to every environment. */
    public Shift(String id, Tier tier, Dimension dimension, String description, List<ShiftParam> params,
                 BiFunction<Env, Map<String, String>, Env> factory) {
        this(id, tier, dimension, description, params, env -> Optional.empty(), factory);
    }

    /** The shift over the environments of {@code catalog}: itself, unless it looks environments up. */
    public Shift in(Catalog catalog) { return inCatalog == null ? this : inCatalog.apply(catalog); }

    /** Empty when the shift applies to the environment, else the reason it does not. */
    public Optional<String> notApplicable(EnvironmentInfo env) { return applicability.apply(env); }

    /** Wraps the environment. Parameters are already validated against {@link #params()} and completed with defaults. */
    public Env wrap(Env inner, Map<String, String> params) { return factory.apply(inner, params); }

    /** The environment the layers above this one act on. */
    public EnvironmentInfo environmentAfter(EnvironmentInfo env, Map<String, String> params) { return environmentAfter.apply(env, params); }

    /** Where the shift sits in a composed stack, innermost first (see {@link ShiftCatalog#order}). */
    public int order() { return ShiftCatalog.order(id); }

    /** Applicability of shifts that need a tool list or JSON observations: not text-command environments, for this reason. */
    public static Optional<String> needsTools(EnvironmentInfo env, String why) {
        return env.iface() == Interface.TEXT_COMMAND ? Optional.of("not for text-command environments: " + why) : Optional.empty();
    }
}
