package dev.openagent.envs.poi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Split;
import dev.openagent.domain.Tool;
import dev.openagent.domain.ToolFailure;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** Calls POI tools directly on a world, as DomainEnv would after validation. */
final class PoiFixture {
    final PoiWorld world;

    PoiFixture(Split split, long seed) {
        world = PoiWorld.of(split, seed);
    }

    JsonNode call(String tool, String argsJson) {
        Tool<PoiWorld> t = PoiTools.ALL.stream().filter(x -> x.name().equals(tool)).findFirst().orElseThrow();
        return t.behaviour().call(world, t.params().validate(Json.parse(argsJson)));
    }

    ToolFailure fails(String tool, String argsJson) {
        return assertThrows(ToolFailure.class, () -> call(tool, argsJson));
    }

    PoiWorld.Place firstWhere(java.util.function.Predicate<PoiWorld.Place> p) {
        return world.places().stream().filter(p).findFirst().orElseThrow();
    }
}
