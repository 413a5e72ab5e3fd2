package dev.openagent.springai;

import dev.openagent.agent.framework.ChatModelAgent;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.episode.Agent;
import dev.openagent.sandbox.ToolSpec;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

import java.util.List;

/**
 * A Spring AI agent in the sandbox. {@link #of} runs your own agent (a {@code ChatClient} with its
 * prompts, advisors and tool loop) on the sandbox's shifted tools:
 *
 * <pre>{@code
 * FrameworkAgent agent = SpringAiAgent.of("concierge", chatModel, episode ->
 *         ChatClient.create(episode.chatModel()).prompt()
 *                 .system(episode.systemPrompt())
 *                 .user(episode.query())
 *                 .toolCallbacks(episode.toolCallbacks())
 *                 .call()
 *                 .content());
 * }</pre>
 *
 * {@link #chatModel} wraps a bare {@link ChatModel} as an agent of the harness.
 */
public record SpringAiAgent(String name, ChatModel model, EpisodeHandler handler) implements FrameworkAgent {
    /** What the agent does in one episode: build or look up the client, run it, return its final message. */
    @FunctionalInterface
    public interface EpisodeHandler {
        String run(SpringAiEpisode episode) throws Exception;
    }

    /** @throws IllegalArgumentException when the name is blank or the model or handler is missing */
    public SpringAiAgent {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("agent name is blank");
        if (model == null) throw new IllegalArgumentException("no chat model given");
        if (handler == null) throw new IllegalArgumentException("no episode handler given");
    }

    /**
     * @param name    the agent's name in results
     * @param model   the model the agent uses; each episode hands out a recording view of it ({@link SpringAiEpisode#chatModel})
     * @param handler the agent's run on one episode; must be safe to call from several threads when episodes run concurrently
     */
    public static SpringAiAgent of(String name, ChatModel model, EpisodeHandler handler) {
        return new SpringAiAgent(name, model, handler);
    }

    /**
     * A bare chat model as an agent: each turn sends the episode so far, with its tools (as
     * definitions: Spring AI 2 models do not run tools themselves), through {@link ChatModel#call};
     * tool calls in the reply are the next turn, text is the final answer (or refusal).
     *
     * @throws IllegalArgumentException when the model's options cannot carry tools
     */
    public static Agent chatModel(String name, ChatModel model) {
        if (model == null) throw new IllegalArgumentException("no chat model given");
        if (!(model.getOptions().mutate() instanceof ToolCallingChatOptions.Builder<?>)) {
            throw new IllegalArgumentException("the options of " + model.getClass().getSimpleName() + " cannot carry tools (not ToolCallingChatOptions)");
        }
        return new ChatModelAgent(name, (messages, tools) -> {
            var sent = Messages.toSpringAi(messages);
            ChatResponse r = model.call(new Prompt(sent, options(model, tools)));
            AssistantMessage reply = Messages.reply(r);
            if (reply == null) throw new IllegalStateException("the model returned no message");
            return new ChatModelAgent.Exchange(Messages.of(sent), Messages.of(reply), Messages.usage(r));
        });
    }

    /** The model's own options with the tools: definitions the model offers, never executed by Spring AI. */
    private static ChatOptions options(ChatModel model, List<ToolSpec> tools) {
        ToolCallingChatOptions.Builder<?> b = (ToolCallingChatOptions.Builder<?>) model.getOptions().mutate();
        if (!tools.isEmpty()) b.toolCallbacks(tools.stream().<ToolCallback>map(DefinitionOnly::new).toList());
        return b.build();
    }

    private record DefinitionOnly(ToolDefinition definition) implements ToolCallback {
        DefinitionOnly(ToolSpec tool) { this(SandboxToolCallback.definition(tool)); }

        @Override
        public ToolDefinition getToolDefinition() { return definition; }

        @Override
        public String call(String toolInput) {
            throw new IllegalStateException("the sandbox executes " + definition.name() + ", not Spring AI");
        }
    }

    @Override
    public String run(FrameworkEpisode episode) throws Exception {
        return handler.run(new SpringAiEpisode(episode, model));
    }
}
