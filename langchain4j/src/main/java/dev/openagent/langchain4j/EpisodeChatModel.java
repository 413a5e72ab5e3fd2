package dev.openagent.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.ModelProvider;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.ChatRequestOptions;
import dev.langchain4j.model.chat.listener.ChatModelListener;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.openagent.agent.framework.FrameworkEpisode;

import java.util.List;
import java.util.Set;

/**
 * The agent's chat model inside one episode: every call goes to the model unchanged and is reported
 * to the episode (the agent's transcript, the turn its tool calls make, tokens); a failing call is
 * an infrastructure error, a call after the episode ended stops the agent.
 */
record EpisodeChatModel(ChatModel model, FrameworkEpisode episode) implements ChatModel {
    @Override
    public ChatResponse chat(ChatRequest request, ChatRequestOptions options) {
        ChatResponse response = episode.modelCall(() -> model.chat(request, options));
        if (response == null || response.aiMessage() == null) {
            throw episode.modelFailed(new IllegalStateException("the model returned no message"));
        }
        List<ToolSpecification> tools = model.defaultRequestParameters().overrideWith(request.parameters()).toolSpecifications();
        episode.modelReplied(Messages.of(request.messages()), tools == null ? List.of() : tools.stream().map(ToolSpecification::name).toList(),
                Messages.of(response.aiMessage()), Messages.usage(response.tokenUsage()));
        return response;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) { return chat(request); }

    @Override
    public ChatRequestParameters defaultRequestParameters() { return model.defaultRequestParameters(); }

    @Override
    public List<ChatModelListener> listeners() { return model.listeners(); }

    @Override
    public ModelProvider provider() { return model.provider(); }

    @Override
    public Set<Capability> supportedCapabilities() { return model.supportedCapabilities(); }
}
