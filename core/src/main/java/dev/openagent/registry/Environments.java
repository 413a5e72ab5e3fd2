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

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of environments: adding one is one line here plus its own package. */
public final class Environments {
    private static final Map<String, Environment> ALL = new LinkedHashMap<>();
    /** Environments loaded from files at run time: reachable by id, but not part of the built-in catalog {@link #all} lists. */
    private static final Map<String, Environment> LOADED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The built-in environments, in the order they are listed. */
    private static final List<Domain<?>> BUILT_IN = List.of(PoiDomain.DOMAIN, MedicalDomain.DOMAIN, RetailDomain.DOMAIN, TravelDomain.DOMAIN,
            HouseholdDomain.DOMAIN);

    /** The tools each built-in function-call environment declares, by environment id (tool.crowded borrows them). */
    private static final Map<String, List<ToolSpec>> DECLARED_TOOLS = new LinkedHashMap<>();

    static {
        for (Domain<?> d : BUILT_IN) {
            register(of(d));
            if (d.surface() instanceof Surface.FunctionCalls<?> f) DECLARED_TOOLS.put(d.id(), f.tools().stream().map(Tool::spec).toList());
        }
    }

    private Environments() {}

    private static void register(Environment e) {
        if (ALL.put(e.id(), e) != null) throw new IllegalStateException("duplicate environment " + e.id());
    }

    /**
     * Adds an environment loaded at run time (declared in a file), so every command and runner that resolves
     * environments by id ({@link #get}) reaches it; {@link #all} and {@link #ids} still list the built-in ones.
     * Adding the same instance twice is harmless.
     *
     * @throws IllegalArgumentException when another environment already has its id
     */
    public static synchronized void add(Environment e) {
        if (ALL.containsKey(e.id())) throw new UserInputException("environment id '" + e.id() + "' is a built-in one; give the file another id");
        Environment old = LOADED.putIfAbsent(e.id(), e);
        if (old != null && old != e) throw new UserInputException("environment id '" + e.id() + "' is already taken; give the file another id");
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
    public static Map<String, List<ToolSpec>> declaredTools() { return java.util.Collections.unmodifiableMap(DECLARED_TOOLS); }

    public static List<Environment> all() { return List.copyOf(ALL.values()); }

    public static List<String> ids() { return List.copyOf(ALL.keySet()); }

    /** @throws IllegalArgumentException naming the known ids when there is no such environment */
    public static Environment get(String id) {
        Environment e = ALL.get(id);
        if (e == null) e = LOADED.get(id);
        if (e == null) throw new UserInputException("unknown environment '" + id + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        return e;
    }
}
