package dev.openagent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.RecordLookup;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Environment-specific knowledge some shifts use when an environment offers it. Every method has
 * a generic default, so an environment works under every shift without implementing any of them;
 * implementing one makes the matching shift more realistic (see docs/shifts.md).
 * An environment offers its hooks through {@link Domain#shiftHooks()} or {@code TextDomain.shiftHooks()}
 * (usually one stateless {@code XShiftHooks} instance beside its domain); an environment that runs
 * neither can implement {@link Provider}.
 *
 * @param <W> the world of one episode
 */
public interface ShiftHooks<W> {

    /** Hooks that offer nothing: every shift uses its generic fallback. */
    static <W> ShiftHooks<W> none() { return new ShiftHooks<>() {}; }

    /** Transitional: the hooks bound to a world, as the facts shifts read. */
    static <W> EnvFacts facts(ShiftHooks<W> hooks, W world) {
        return new EnvFacts() {
            public List<ToolFacts> tools() { return List.of(); }

            public Map<String, List<String>> synonyms() { return hooks.synonyms(); }

            public List<EnvFacts.Rewrite> paraphrases() {
                return hooks.paraphrases().stream().map(r -> new EnvFacts.Rewrite(r.regex(), r.replacement())).toList();
            }

            public List<String> distractions(Task task, long seed) { return hooks.distractions(task, world, seed); }

            public Optional<Task> unsolvable(Task task, long seed) { return hooks.unsolvable(task, world, seed); }

            public Optional<dev.openagent.sandbox.Chain> longerChain(Task task, long seed, int extraHops) {
                return hooks.longerChain(task, world, seed, extraHops)
                        .map(c -> new dev.openagent.sandbox.Chain(c.query(), c.hops(), c.pointer(), c.expected(), c.details()));
            }

            public Optional<RecordLookup> lookup(String idField) {
                return hooks.lookup(idField).map(l -> new RecordLookup(l.tool(), idField, l.param(), l.fields()));
            }

            public List<EnvFacts.Prerequisite> prerequisites() {
                return hooks.prerequisites().stream().map(p -> new EnvFacts.Prerequisite(p.before(), p.after())).toList();
            }

            public Map<String, dev.openagent.sandbox.Alternative> alternatives() {
                Map<String, dev.openagent.sandbox.Alternative> out = new java.util.LinkedHashMap<>();
                hooks.alternatives().forEach((k, a) -> out.put(k, new dev.openagent.sandbox.Alternative(a.uses(), a.next(), a.result())));
                return out;
            }

            public boolean personName(String tool, String param) {
                Set<String> names = hooks.personNameParams();
                return names.contains(param) || names.contains(tool + "." + param);
            }
        };
    }

    /**
     * A chain of extra dependent calls that leads to an entity the query no longer names.
     *
     * @param query    the rewritten query
     * @param hops     the extra calls (their refs point at earlier hops)
     * @param pointer  where in the last hop's result the entity's id appears
     * @param expected that id: the hops must lead exactly there
     * @param details  the query's removable details after the rewrite
     */
    record Chain(String query, List<GoldPlan.Call> hops, String pointer, String expected, List<Detail> details) {
        public Chain {
            hops = List.copyOf(hops);
            details = List.copyOf(details);
        }
    }

    /**
     * The tool returning the full record of an entity by its id: {@code tool(param = id)} returns an
     * object holding {@code fields}.
     */
    record Lookup(String tool, String param, Set<String> fields) {
        public Lookup {
            fields = Set.copyOf(fields);
        }
    }

    /**
     * Another path to what a tool does: the calls that replace it, chosen one at a time from the removed
     * call's arguments and the results so far ({@code next} returns null when they are done; a call's refs
     * point at earlier calls of this path), the tools they use, and how their results give the removed
     * tool's result. A path can depend on what it finds (one lookup per order an account lists).
     */
    record Alternative(String tool, Set<String> uses, BiFunction<ObjectNode, List<JsonNode>, GoldPlan.Call> next,
                       BiFunction<ObjectNode, List<JsonNode>, JsonNode> result) {
        public Alternative {
            uses = Set.copyOf(uses);
        }

        /** A path of a fixed list of calls, built from the removed call's arguments. */
        public static Alternative of(String tool, Function<ObjectNode, List<GoldPlan.Call>> calls,
                                     BiFunction<ObjectNode, List<JsonNode>, JsonNode> result) {
            Set<String> uses = new java.util.HashSet<>();
            calls.apply(dev.openagent.json.Json.object()).forEach(c -> uses.add(c.tool()));
            return new Alternative(tool, uses, (args, results) -> {
                List<GoldPlan.Call> all = calls.apply(args);
                return results.size() < all.size() ? all.get(results.size()) : null;
            }, result);
        }
    }

    /** A rule "{@code before} must succeed before {@code after}" with no data flowing between them. */
    record Prerequisite(String before, String after) {}

    /** A regex and its replacement, for paraphrasing queries. */
    record Rewrite(String regex, String replacement) {}

    /**
     * The task made impossible in this world, realistically (the entity does not exist, the slot
     * can never be booked...): query and details rewritten, plan = the probing calls that show it
     * and a refusal. Empty: the shift falls back to removing the capability the task needs.
     */
    default Optional<Task> unsolvable(Task task, W world, long seed) { return Optional.empty(); }

    /** The task rewritten so its entity is reached through {@code extraHops} more dependent calls. */
    default Optional<Chain> longerChain(Task task, W world, long seed, int extraHops) { return Optional.empty(); }

    /** Word synonyms for renaming tools, parameters and keys (word -> alternatives), over the generic table. */
    default Map<String, List<String>> synonyms() { return Map.of(); }

    /** Phrase rewrites for query.paraphrase, tried before the generic ones. */
    default List<Rewrite> paraphrases() { return List.of(); }

    /** Plausible but irrelevant sentences naming things of this world, for query.redundant. */
    default List<String> distractions(Task task, W world, long seed) { return List.of(); }

    /** How to recover a field of an entity given its id field (for obs.missing-values). */
    default Optional<Lookup> lookup(String idField) { return Optional.empty(); }

    /** Other paths to what a tool does (for tool.removal), by tool name. */
    default Map<String, Alternative> alternatives() { return Map.of(); }

    /** Order-only prerequisites between tools (for logic.inversion). */
    default List<Prerequisite> prerequisites() { return List.of(); }

    /**
     * Parameters that hold a person's full name (for domain.policy-update): a parameter name, or
     * {@code tool.parameter} when only that tool's parameter of that name holds one.
     */
    default Set<String> personNameParams() {
        return Set.of("guest_name", "customer_name", "patient_name", "passenger_name", "traveler_name", "traveller_name");
    }
}
