package dev.openagent.sandbox;

import java.util.List;
import java.util.Map;

/**
 * One task: the user's request, its reference solution, and what the checker needs.
 *
 * @param id             stable id: env/split/seed/difficulty
 * @param kind           the task template (for reports and per-kind analysis)
 * @param query          the user's request as the environment states it (before query shifts)
 * @param difficulty     1..4: dependent hops, plus constraints and comparisons at the top
 * @param solvable       false only for tasks made impossible; the right ending is then a refusal
 * @param mustContain    strings the final answer must contain (case- and punctuation-insensitive)
 * @param mustNotContain strings the final answer must not contain (the near-miss candidates)
 * @param expect         domain-specific expectations the checker reads (for example the booking a
 *                       writing task must leave in the world)
 * @param details        the query's removable details (see {@link Detail})
 * @param userFacts      what the simulated user knows beyond the query ('|'-separated keywords to reply)
 * @param writes         whether the task changes world state (then the checker also checks the state)
 */
public record Task(String id, String env, Split split, long seed, String kind, int difficulty, String query,
                   GoldPlan plan, boolean solvable, List<String> mustContain, List<String> mustNotContain,
                   Map<String, String> expect, List<Detail> details, Map<String, String> userFacts, boolean writes) {
    public Task {
        mustContain = List.copyOf(mustContain);
        mustNotContain = List.copyOf(mustNotContain);
        expect = Map.copyOf(expect);
        details = List.copyOf(details);
        userFacts = Map.copyOf(userFacts);
    }

    public Task withQuery(String newQuery) {
        return new Task(id, env, split, seed, kind, difficulty, newQuery, plan, solvable, mustContain, mustNotContain, expect, details, userFacts, writes);
    }

    public Task withPlan(GoldPlan newPlan) {
        return new Task(id, env, split, seed, kind, difficulty, query, newPlan, solvable, mustContain, mustNotContain, expect, details, userFacts, writes);
    }

    public Task withUserFacts(Map<String, String> facts) {
        return new Task(id, env, split, seed, kind, difficulty, query, plan, solvable, mustContain, mustNotContain, expect, details, facts, writes);
    }

    public Task withDetails(List<Detail> newDetails) {
        return new Task(id, env, split, seed, kind, difficulty, query, plan, solvable, mustContain, mustNotContain, expect, newDetails, userFacts, writes);
    }

    /** The same request made impossible: the right ending becomes a refusal. */
    public Task unsolvable(String newQuery, String reason) {
        return unsolvable(newQuery, List.of(), reason, details);
    }

    /**
     * The request made impossible, with the probing calls that show it (their failures are expected)
     * before the refusal.
     */
    public Task unsolvable(String newQuery, List<GoldPlan.Call> probes, String reason, List<Detail> newDetails) {
        return new Task(id, env, split, seed, kind, difficulty, newQuery, new GoldPlan(probes, reason, true), false,
                List.of(), List.of(), Map.of(), newDetails, userFacts, writes);
    }
}
