package dev.openagent.cli;

import dev.openagent.run.AgentSpec;
import picocli.CommandLine.Option;

/** The flags that configure {@code --agent openai}. Given with an experiment file, they override its openai agents. */
final class OpenAiOptions {
    @Option(names = "--base-url", description = "OpenAI-compatible API root, e.g. http://127.0.0.1:8000/v1.")
    String baseUrl;

    @Option(names = "--model", description = "Model name sent in requests; it also names the model in results.")
    String model;

    @Option(names = "--api-key-env", description = "Environment variable holding the API key (default: OPENAI_API_KEY; none needed for local servers).")
    String apiKeyEnv;

    @Option(names = "--tool-protocol", description = "native (OpenAI tool calling) or text (tools in the prompt, calls parsed from text). Default: native.")
    String toolProtocol;

    @Option(names = "--temperature", description = "Sampling temperature (default: the server's).")
    Double temperature;

    @Option(names = "--max-output-tokens", description = "Completion token limit per request (max_tokens).")
    Integer maxOutputTokens;

    @Option(names = "--model-seed", description = "Sampling seed sent to the model; trial t sends seed + t.")
    Long modelSeed;

    @Option(names = "--system-prompt", description = "File with the system prompt template ({{system}}: the environment's prompt, {{tools}}: the protocol notes).")
    String systemPromptFile;

    @Option(names = "--timeout", description = "Per-request timeout in seconds (default: 120).")
    Double timeoutSeconds;

    @Option(names = "--retries", description = "Retries of a failed request (timeouts, 429, 5xx, dropped connections; default: 4).")
    Integer retries;

    /** The spec of an agent of this kind, with these flags applied over {@code base} (which may be null). */
    AgentSpec apply(String kind, AgentSpec base) {
        AgentSpec b = base == null ? AgentSpec.of(kind) : base;
        if (!b.kind().equals("openai")) return b;
        return new AgentSpec(b.kind(), b.label(), or(baseUrl, b.baseUrl()), or(model, b.model()), or(apiKeyEnv, b.apiKeyEnv()),
                or(toolProtocol, b.toolProtocol()), or(temperature, b.temperature()), or(maxOutputTokens, b.maxTokens()),
                or(modelSeed, b.seed()), systemPromptFile != null ? null : b.systemPrompt(), or(systemPromptFile, b.systemPromptFile()),
                or(timeoutSeconds, b.timeoutSeconds()), or(retries, b.retries()));
    }

    private static <T> T or(T flag, T file) {
        return flag != null ? flag : file;
    }
}
