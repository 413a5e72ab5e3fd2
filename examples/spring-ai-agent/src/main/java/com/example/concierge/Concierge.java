package com.example.concierge;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;

import java.util.List;

/**
 * The concierge of a city guide: a ChatClient that answers a guest's request with the guide's tools
 * (its tool-calling advisor runs the loop).
 */
public final class Concierge {
    static final String PERSONA = "You are the concierge of a city guide. Be precise and brief.";

    private final ChatClient client;

    /**
     * The concierge on a model and a set of tools: the city guide's in production, the sandbox's
     * (renamed, reworded, noisy...) in the robustness tests.
     *
     * @param instructions the service's instructions (how to ask, answer and refuse, and its rules)
     */
    public Concierge(ChatModel model, List<ToolCallback> tools, String instructions) {
        this.client = ChatClient.builder(model).defaultSystem(PERSONA + "\n\n" + instructions).defaultToolCallbacks(tools).build();
    }

    public String chat(String request) {
        return client.prompt().user(request).call().content();
    }
}
