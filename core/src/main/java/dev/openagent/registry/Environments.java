package dev.openagent.registry;

import dev.openagent.UserInputException;
import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.domain.Surface;
import dev.openagent.domain.Tool;
import dev.openagent.envs.household.HouseholdDomain;
import dev.openagent.envs.medical.MedicalDomain;
import dev.openagent.envs.poi.PoiDomain;
import dev.openagent.envs.retail.RetailDomain;
import dev.openagent.envs.travel.TravelDomain;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.ToolSpec;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The built-in environments, fixed when the class loads: adding one is its own package plus one line in {@link #BUILT_IN}.
 * Environments loaded at run time (files, tau2-bench) live in the {@link Catalog} of the command, server or test that
 * loaded them, never here.
 */
public final class Environments {
    /** The built-in environments, in the order they are listed. */
    private static final List<Domain<?>> BUILT_IN = List.of(PoiDomain.DOMAIN, MedicalDomain.DOMAIN, RetailDomain.DOMAIN, TravelDomain.DOMAIN,
            HouseholdDomain.DOMAIN);

    private static final Map<String, Environment> ALL = byId();

    /** The tools each built-in function-call environment declares, by environment id (tool.crowded borrows them). */
    private static final Map<String, List<ToolSpec>> DECLARED_TOOLS = declared();

    private Environments() {}

    private static Map<String, Environment> byId() {
        Map<String, Environment> all = new LinkedHashMap<>();
        for (Domain<?> d : BUILT_IN) {
            if (all.put(d.id(), of(d)) != null) throw new IllegalStateException("duplicate environment " + d.id());
        }
        return Collections.unmodifiableMap(all);
    }

    private static Map<String, List<ToolSpec>> declared() {
        Map<String, List<ToolSpec>> tools = new LinkedHashMap<>();
        for (Domain<?> d : BUILT_IN) {
            if (d.surface() instanceof Surface.FunctionCalls<?> f) tools.put(d.id(), f.tools().stream().map(Tool::spec).toList());
        }
        return Collections.unmodifiableMap(tools);
    }

    /** An environment over a {@link Domain}: each instance runs its episodes with a {@link DomainEnv}. */
    public static Environment of(Domain<?> domain) {
        EnvironmentInfo info = DomainEnv.infoOf(domain);
        return new Environment() {
            @Override
            public EnvironmentInfo info() { return info; }

            @Override
            public Env create() { return new DomainEnv<>(domain); }
        };
    }

    /**
     * The tools each built-in function-call environment declares (names, descriptions, schemas), by environment id in
     * the order they are listed: what another environment's tool list looks like, for shifts that crowd a tool list
     * with them.
     */
    public static Map<String, List<ToolSpec>> declaredTools() { return DECLARED_TOOLS; }

    /** The built-in environments, in the order they are listed. */
    public static List<Environment> all() { return List.copyOf(ALL.values()); }

    /** The built-in environments' ids, in the order they are listed. */
    public static List<String> ids() { return List.copyOf(ALL.keySet()); }

    /** The built-in environment with this id, if there is one. */
    public static Optional<Environment> find(String id) { return Optional.ofNullable(ALL.get(id)); }

    /**
     * A built-in environment (a {@link Catalog} also reaches the ones it loaded).
     *
     * @throws UserInputException naming the known ids when there is no such environment
     */
    public static Environment get(String id) {
        return find(id).orElseThrow(() -> unknown(id));
    }

    /** The one-line error for an id no environment has. */
    static UserInputException unknown(String id) {
        return new UserInputException("unknown environment '" + id + "' (known: " + String.join(", ", ALL.keySet()) + ")");
    }
}
