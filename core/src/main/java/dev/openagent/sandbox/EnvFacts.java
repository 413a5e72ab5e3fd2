package dev.openagent.sandbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What shifts may know about the environment of the current episode, as the environment declares it:
 * facts on its tools ({@link ToolFacts}), its vocabulary, and what its task kinds allow (made impossible,
 * restated through a longer chain). Every wrapper passes the facts of the environment it wraps through
 * unchanged, so a shift reads them with {@link Env#facts()} and never names or unwraps an environment.
 * Facts are by the environment's own (base) tool names: the shifts that read them sit inside the shifts
 * that rename tools. An environment that declares nothing has {@link #NONE}; every shift then falls back
 * on what it can see (the tool list, the gold plan).
 */
public interface EnvFacts {

    /** The declared facts of the environment's tools, in its tool order (tools without facts may be absent). */
    List<ToolFacts> tools();

    /** Word synonyms for renaming tools, parameters and keys (word -> alternatives), over the generic table. */
    Map<String, List<String>> synonyms();

    /** Phrase rewrites for paraphrasing queries, tried before the generic ones. */
    List<Rewrite> paraphrases();

    /** Plausible but irrelevant sentences naming things of this world, for a query that grows distractions. */
    List<String> distractions(Task task, long seed);

    /**
     * The task made impossible in this world by one of the ways its kind declares (the entity does not exist,
     * the slot can never be booked...), chosen with the seed; empty when no declared way fits this task.
     */
    Optional<Task> unsolvable(Task task, long seed);

    /** The task restated so its entity is reached through {@code extraHops} more dependent calls, as its kind declares. */
    Optional<Chain> longerChain(Task task, long seed, int extraHops);

    /**
     * The user's request revised mid-episode: another request of the same kind in this episode's world (another
     * target, date, party size or item), posed by the environment's own task generator with the seed; empty when
     * the environment cannot pose one. The world may gain what the revised request needs (as on a reset).
     */
    default Optional<Task> revised(Task task, long seed) { return Optional.empty(); }

    /**
     * Null when {@code answer} is a right final answer to {@code task} in this episode's world (its answer and
     * the world state), else why not: the environment's checker, for a task restated mid-episode ({@link #revised}).
     */
    default String check(Task task, String answer) {
        throw new UnsupportedOperationException("this environment declares no checker for restated tasks");
    }

    /**
     * The words of a request that a tool needs exactly as written, which shifts that misspell, abbreviate or re-case
     * the request leave intact: every word of the gold plan's literal arguments (ids, codes, e-mail addresses, names,
     * dates, SQL with its column names) and of the tools' schemas (tool and parameter names, allowed values). This is
     * what an environment that declares nothing more gets, file environments included; one may add to it.
     */
    default Set<String> exactWords(Task task, List<ToolSpec> tools) {
        Set<String> out = new LinkedHashSet<>();
        for (GoldPlan.Call c : task.plan().calls()) wordsOf(c.args(), out);
        for (ToolSpec t : tools) {
            out.addAll(ExactWords.split(t.name()));
            t.parameters().path("properties").fields().forEachRemaining(p -> {
                out.addAll(ExactWords.split(p.getKey()));
                p.getValue().path("enum").forEach(v -> out.addAll(ExactWords.split(v.asText())));
            });
        }
        return out;
    }

    private static void wordsOf(com.fasterxml.jackson.databind.JsonNode v, Set<String> out) {
        if (v.isTextual() || v.isNumber()) out.addAll(ExactWords.split(v.asText()));
        else if (v.isContainerNode()) v.forEach(x -> wordsOf(x, out));
    }

    /** A regex and its replacement, for paraphrasing queries. */
    record Rewrite(String regex, String replacement) {}

    /** Nothing declared. */
    EnvFacts NONE = new EnvFacts() {
        public List<ToolFacts> tools() { return List.of(); }

        public Map<String, List<String>> synonyms() { return Map.of(); }

        public List<Rewrite> paraphrases() { return List.of(); }

        public List<String> distractions(Task task, long seed) { return List.of(); }

        public Optional<Task> unsolvable(Task task, long seed) { return Optional.empty(); }

        public Optional<Chain> longerChain(Task task, long seed, int extraHops) { return Optional.empty(); }
    };

    // ---------------------------------------------------------------- views over the tool facts

    /** The facts declared on one tool. */
    default Optional<ToolFacts> tool(String name) {
        return tools().stream().filter(t -> t.tool().equals(name)).findFirst();
    }

    /** How to fetch the full record of the entity whose id appears in results under {@code idField}. */
    default Optional<RecordLookup> lookup(String idField) {
        for (ToolFacts t : tools()) {
            for (RecordLookup r : t.records()) if (r.idField().equals(idField)) return Optional.of(r);
        }
        return Optional.empty();
    }

    /** Order-only prerequisites between tools ("{@code before} must succeed before {@code after}"), in tool order. */
    default List<Prerequisite> prerequisites() {
        List<Prerequisite> out = new ArrayList<>();
        for (ToolFacts t : tools()) for (String before : t.after()) out.add(new Prerequisite(before, t.tool()));
        return out;
    }

    /** Other paths to what tools do, by tool name. */
    default Map<String, Alternative> alternatives() {
        Map<String, Alternative> out = new LinkedHashMap<>();
        for (ToolFacts t : tools()) t.orVia().ifPresent(a -> out.put(t.tool(), a));
        return out;
    }

    /** Whether this parameter of this tool holds a person's full name. */
    default boolean personName(String tool, String param) {
        return tool(tool).map(t -> t.personNames().contains(param)).orElse(false);
    }

    /** The tools declared read-only: calling them changes nothing. */
    default Set<String> readOnlyTools() {
        Set<String> out = new LinkedHashSet<>();
        for (ToolFacts t : tools()) if (t.readOnly()) out.add(t.tool());
        return out;
    }

    /** A rule "{@code before} must succeed before {@code after}" with no data flowing between them. */
    record Prerequisite(String before, String after) {}
}
