package dev.openagent.episode;

import dev.openagent.sandbox.SortedMaps;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.Map;

/** Per-episode counts the metrics read. */
public record Stats(int turns,
                    @JsonProperty("tool_calls") int toolCalls,
                    @JsonProperty("tool_errors") int toolErrors,
                    @JsonProperty("error_codes") Map<String, Integer> errorCodes,
                    @JsonProperty("prompt_tokens") long promptTokens,
                    @JsonProperty("completion_tokens") long completionTokens) {
    public Stats {
        errorCodes = errorCodes == null ? Map.of() : SortedMaps.copyOf(errorCodes);
    }
}
