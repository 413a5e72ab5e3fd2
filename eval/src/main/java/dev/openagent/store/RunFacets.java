package dev.openagent.store;

import java.util.List;

/** The distinct values a run's episodes hold in the columns a viewer filters by, each sorted. */
public record RunFacets(List<String> agents, List<String> envs, List<String> tiers, List<String> shifts) {
    public RunFacets {
        agents = List.copyOf(agents);
        envs = List.copyOf(envs);
        tiers = List.copyOf(tiers);
        shifts = List.copyOf(shifts);
    }
}
