package com.example.concierge;

import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

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
        return OpenAiChatModel.builder().options(OpenAiChatOptions.builder()
                .baseUrl(baseUrl == null || baseUrl.isBlank() ? "https://api.openai.com/v1" : baseUrl)
                .apiKey(key == null || key.isBlank() ? "none" : key)
                .model(model)
                .temperature(0.0)
                .build()).build();
    }
}
