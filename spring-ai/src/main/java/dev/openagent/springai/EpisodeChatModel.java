package dev.openagent.springai;

import dev.openagent.agent.framework.FrameworkEpisode;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;

import java.util.List;

/**
 * The agent's chat model inside one episode: every call goes to the model unchanged and is reported
 * to the episode (the agent's transcript, the turn its tool calls make, tokens); a failing call is
 * an infrastructure error, a call after the episode ended stops the agent.
 */
record EpisodeChatModel(ChatModel model, FrameworkEpisode episode) implements ChatModel {
    @Override
    public ChatResponse call(Prompt prompt) {
        ChatResponse response = episode.modelCall(() -> model.call(prompt));
        AssistantMessage reply = Messages.reply(response);
        if (reply == null) throw episode.modelFailed(new IllegalStateException("the model returned no message"));
        List<String> tools = prompt.getOptions() instanceof ToolCallingChatOptions o && o.getToolCallbacks() != null
                ? o.getToolCallbacks().stream().map(ToolCallback::getToolDefinition).map(d -> d.name()).toList() : List.of();
        episode.modelReplied(Messages.of(prompt.getInstructions()), tools, Messages.of(reply), Messages.usage(response));
        return response;
    }

    @Override
    public ChatOptions getOptions() { return model.getOptions(); }

    /** Streaming is not recorded: a streaming agent would act outside the sandbox's view. */
    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        throw new UnsupportedOperationException("streaming is not supported in the sandbox: call the model with call()");
    }
}
