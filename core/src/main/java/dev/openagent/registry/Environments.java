package dev.openagent.registry;

import dev.openagent.domain.Domain;
import dev.openagent.domain.DomainEnv;
import dev.openagent.envs.household.HouseholdDomain;
import dev.openagent.envs.medical.MedicalDomain;
import dev.openagent.envs.poi.PoiDomain;
import dev.openagent.envs.retail.RetailDomain;
import dev.openagent.envs.travel.TravelDomain;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.EnvironmentInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of environments: adding one is one line here plus its own package. */
public final class Environments {
    private static final Map<String, Environment> ALL = new LinkedHashMap<>();

    static {
        register(of(PoiDomain.DOMAIN));
        register(of(MedicalDomain.DOMAIN));
        register(of(RetailDomain.DOMAIN));
        register(of(TravelDomain.DOMAIN));
        register(of(HouseholdDomain.DOMAIN));
    }

    private Environments() {}

    private static void register(Environment e) {
        if (ALL.put(e.id(), e) != null) throw new IllegalStateException("duplicate environment " + e.id());
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

    public static List<Environment> all() { return List.copyOf(ALL.values()); }

    public static List<String> ids() { return List.copyOf(ALL.keySet()); }

    /** @throws IllegalArgumentException naming the known ids when there is no such environment */
    public static Environment get(String id) {
        Environment e = ALL.get(id);
        if (e == null) throw new IllegalArgumentException("unknown environment '" + id + "' (known: " + String.join(", ", ALL.keySet()) + ")");
        return e;
    }
}
