package com.example.concierge;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;

import java.time.Duration;

/**
 * The model the robustness tests run the agent on, from the environment: OPENAI_MODEL, OPENAI_BASE_URL
 * (default: OpenAI's) and OPENAI_API_KEY. OpenAgent's built-in policy serves as one:
 * {@code openagent serve model --policy DIR} prints the base URL, and the model id is DIR's name.
 */
final class TestModel {
    private TestModel() {}

    static ChatModel fromEnvironment() {
        String model = System.getenv("OPENAI_MODEL");
        if (model == null || model.isBlank()) {
            throw new IllegalStateException("set OPENAI_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY) to the model to test the agent on");
        }
        String baseUrl = System.getenv("OPENAI_BASE_URL");
        String key = System.getenv("OPENAI_API_KEY");
        return OpenAiChatModel.builder()
                .baseUrl(baseUrl == null || baseUrl.isBlank() ? "https://api.openai.com/v1" : baseUrl)
                .apiKey(key == null || key.isBlank() ? "none" : key)
                .modelName(model)
                .temperature(0.0)
                .timeout(Duration.ofSeconds(60))
                .maxRetries(2)
                .build();
    }
}
