package com.example.concierge;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.tool.ToolProvider;

/** The concierge of a city guide: an AI service that answers a guest's request with the guide's tools. */
public interface Concierge {
    String PERSONA = "You are the concierge of a city guide. Be precise and brief.";

    String chat(String request);

    /**
     * The concierge on a model and a set of tools: the city guide's in production, the sandbox's
     * (renamed, reworded, noisy...) in the robustness tests.
     *
     * @param instructions the service's instructions (how to ask, answer and refuse, and its rules)
     */
    static Concierge create(ChatModel model, ToolProvider tools, String instructions) {
        return AiServices.builder(Concierge.class)
                .chatModel(model)
                .toolProvider(tools)
                .systemMessageProvider(memoryId -> PERSONA + "\n\n" + instructions)
                .build();
    }
}
