package dev.openagent.sandbox;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Another path to what a tool does: the calls that replace it, chosen one at a time from the removed
 * call's arguments and the results so far ({@code next} returns null when they are done; a call's refs
 * point at earlier calls of this path), the tools they use, and how their results give the removed
 * tool's result. A path can depend on what it finds (one lookup per order an account lists).
 */
public record Alternative(Set<String> uses, BiFunction<ObjectNode, List<JsonNode>, GoldPlan.Call> next,
                          BiFunction<ObjectNode, List<JsonNode>, JsonNode> result) {
    public Alternative {
        uses = Set.copyOf(uses);
    }

    /** A path of a fixed list of calls, built from the removed call's arguments. */
    public static Alternative of(Function<ObjectNode, List<GoldPlan.Call>> calls, BiFunction<ObjectNode, List<JsonNode>, JsonNode> result) {
        Set<String> uses = new HashSet<>();
        calls.apply(Json.object()).forEach(c -> uses.add(c.tool()));
        return new Alternative(uses, (args, results) -> {
            List<GoldPlan.Call> all = calls.apply(args);
            return results.size() < all.size() ? all.get(results.size()) : null;
        }, result);
    }
}
