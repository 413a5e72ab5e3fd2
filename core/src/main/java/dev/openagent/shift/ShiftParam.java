package dev.openagent.shift;

import java.util.List;

/** A parameter a shift accepts in its spec ({@code obs.format:format=xml}). */
public record ShiftParam(String name, String description, String defaultValue, List<String> values) {
    public ShiftParam {
        values = values == null ? List.of() : List.copyOf(values);
    }
}
