package dev.openagent.agent.openai;

import dev.openagent.UserInputException;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How to reach a model and how to sample it.
 *
 * @param baseUrl        the API root, for example {@code http://127.0.0.1:8000/v1} ({@code /chat/completions} is appended)
 * @param model          the model name sent in every request; it identifies the model in results
 * @param apiKey         sent as a bearer token; null for local servers that need none
 * @param temperature    null leaves the server's default
 * @param maxTokens      completion token limit per request ({@code max_tokens}); null leaves the default
 * @param seed           sampling seed; trial {@code t} sends {@code seed + t}; null sends none
 * @param systemPrompt   template of the system prompt: {@code {{system}}} is the environment's prompt,
 *                       {@code {{tools}}} the tool block of the text protocol; null uses {@link #DEFAULT_TEMPLATE}
 * @param timeout        per-request timeout
 * @param label          the agent's name in results, by default {@code openai:MODEL}
 */
public record OpenAiConfig(URI baseUrl, String model, String apiKey, ToolProtocol protocol, Double temperature,
                           Integer maxTokens, Long seed, String systemPrompt, Duration timeout, RetryPolicy retry,
                           String label) {
    public static final String DEFAULT_TEMPLATE = "{{system}}{{tools}}";
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(120);

    public OpenAiConfig {
        if (baseUrl == null) throw new UserInputException("the openai agent needs a base URL (--base-url)");
        String scheme = baseUrl.getScheme();
        if (scheme == null || !(scheme.equals("http") || scheme.equals("https")) || baseUrl.getHost() == null) {
            throw new UserInputException("base URL must be an http(s) URL such as http://127.0.0.1:8000/v1, not '" + baseUrl + "'");
        }
        if (model == null || model.isBlank()) throw new UserInputException("the openai agent needs a model name (--model)");
        if (protocol == null) protocol = ToolProtocol.NATIVE;
        if (temperature != null && (temperature < 0 || temperature > 2)) throw new UserInputException("temperature must be in [0, 2]");
        if (maxTokens != null && maxTokens < 1) throw new UserInputException("max tokens must be at least 1");
        if (systemPrompt == null || systemPrompt.isBlank()) systemPrompt = DEFAULT_TEMPLATE;
        if (timeout == null) timeout = DEFAULT_TIMEOUT;
        if (timeout.isNegative() || timeout.isZero()) throw new UserInputException("timeout must be positive");
        if (retry == null) retry = RetryPolicy.DEFAULT;
        if (label == null || label.isBlank()) label = "openai:" + model;
        if (apiKey != null && apiKey.isBlank()) apiKey = null;
    }

    public static OpenAiConfig of(String baseUrl, String model) {
        return new OpenAiConfig(URI.create(baseUrl), model, null, ToolProtocol.NATIVE, null, null, null, null, null, null, null);
    }

    public OpenAiConfig withRetry(RetryPolicy r) {
        return new OpenAiConfig(baseUrl, model, apiKey, protocol, temperature, maxTokens, seed, systemPrompt, timeout, r, label);
    }

    public OpenAiConfig withSystemPrompt(String template) {
        return new OpenAiConfig(baseUrl, model, apiKey, protocol, temperature, maxTokens, seed, template, timeout, retry, label);
    }

    /** The chat completions URL. */
    public URI endpoint() {
        String s = baseUrl.toString().replaceAll("/+$", "");
        return URI.create(s.endsWith("/chat/completions") ? s : s + "/chat/completions");
    }

    /**
     * What determines the model's answers, and so an episode's identity in the results store.
     * The URL, key, timeout and retries are left out: the same model behind another address or
     * with another key gives the same episodes (name your models distinctly with {@code --model}).
     */
    public Map<String, Object> identity() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "openai");
        m.put("model", model);
        m.put("tool_protocol", protocol.id());
        m.put("temperature", temperature);
        m.put("max_tokens", maxTokens);
        m.put("seed", seed);
        m.put("system_prompt", systemPrompt);
        return m;
    }

    /** Never prints the key. */
    @Override
    public String toString() {
        return "OpenAiConfig[" + label + " at " + baseUrl + ", protocol=" + protocol.id() + ", key=" + (apiKey == null ? "none" : "***") + "]";
    }
}
