package dev.openagent.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.openagent.UserInputException;

/**
 * An agent as an experiment file (or the command line) names it. {@code kind} is what
 * {@code --agent} takes (oracle, random, openai, ...); the other fields configure model agents.
 *
 * @param maxTokens        the model's completion limit per request (not the run's budget)
 * @param systemPromptFile a file holding the system prompt template (instead of {@code system_prompt})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentSpec(String kind,
                        String label,
                        @JsonProperty("base_url") String baseUrl,
                        String model,
                        @JsonProperty("api_key_env") String apiKeyEnv,
                        @JsonProperty("tool_protocol") String toolProtocol,
                        Double temperature,
                        @JsonProperty("max_tokens") Integer maxTokens,
                        Long seed,
                        @JsonProperty("system_prompt") String systemPrompt,
                        @JsonProperty("system_prompt_file") String systemPromptFile,
                        @JsonProperty("timeout_seconds") Double timeoutSeconds,
                        Integer retries) {
    public AgentSpec {
        if (kind == null || kind.isBlank()) throw new UserInputException("every agent needs a kind (oracle, random, openai, ...)");
        kind = kind.strip();
    }

    public static AgentSpec of(String kind) {
        return new AgentSpec(kind, null, null, null, null, null, null, null, null, null, null, null, null);
    }
}
