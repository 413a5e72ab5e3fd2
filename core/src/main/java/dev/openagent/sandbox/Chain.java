package dev.openagent.sandbox;

import java.util.List;

/**
 * A chain of extra dependent calls that leads to an entity the query no longer names.
 *
 * @param query    the rewritten query
 * @param hops     the extra calls (their refs point at earlier hops)
 * @param pointer  where in the last hop's result the entity's id appears
 * @param expected that id: the hops must lead exactly there
 * @param details  the query's removable details after the rewrite
 */
public record Chain(String query, List<GoldPlan.Call> hops, String pointer, String expected, List<Detail> details) {
    public Chain {
        hops = List.copyOf(hops);
        details = List.copyOf(details);
    }
}
