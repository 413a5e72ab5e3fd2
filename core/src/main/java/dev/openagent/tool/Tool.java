package dev.openagent.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.sandbox.ToolSpec;

/**
 * A tool: its name, description and parameters beside its behaviour over a world of type W.
 * Behaviours receive validated arguments and either return a JSON result or throw
 * {@link ToolFailure}.
 */
public record Tool<W>(String name, String description, Params params, Behaviour<W> behaviour) {

    @FunctionalInterface
    public interface Behaviour<W> {
        JsonNode call(W world, Args args);
    }

    public ToolSpec spec() { return new ToolSpec(name, description, params.schema()); }
}
