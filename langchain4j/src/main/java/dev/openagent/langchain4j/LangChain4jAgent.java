package dev.openagent.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.openagent.agent.framework.ChatModelAgent;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.episode.Agent;

import java.util.List;

/**
 * A LangChain4j agent in the sandbox. {@link #of} runs your own agent (an AI service with its
 * prompts, memory and tool loop) on the sandbox's shifted tools:
 *
 * <pre>{@code
 * FrameworkAgent agent = LangChain4jAgent.of("concierge", model, episode ->
 *         AiServices.builder(Concierge.class)
 *                 .chatModel(episode.chatModel())
 *                 .toolProvider(episode.toolProvider())
 *                 .systemMessageProvider(id -> episode.systemPrompt())
 *                 .build()
 *                 .chat(episode.query()));
 * }</pre>
 *
 * {@link #chatModel} wraps a bare {@link ChatModel} as an agent of the harness.
 */
public record LangChain4jAgent(String name, ChatModel model, EpisodeHandler handler) implements FrameworkAgent {
    /** What the agent does in one episode: build or look up the agent, run it, return its final message. */
    @FunctionalInterface
    public interface EpisodeHandler {
        String run(LangChain4jEpisode episode) throws Exception;
    }

    /** @throws IllegalArgumentException when the name is blank or the model or handler is missing */
    public LangChain4jAgent {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("agent name is blank");
        if (model == null) throw new IllegalArgumentException("no chat model given");
        if (handler == null) throw new IllegalArgumentException("no episode handler given");
    }

    /**
     * @param name    the agent's name in results
     * @param model   the model the agent uses; each episode hands out a recording view of it ({@link LangChain4jEpisode#chatModel})
     * @param handler the agent's run on one episode; must be safe to call from several threads when episodes run concurrently
     */
    public static LangChain4jAgent of(String name, ChatModel model, EpisodeHandler handler) {
        return new LangChain4jAgent(name, model, handler);
    }

    /**
     * A bare chat model as an agent: each turn sends the episode so far, with its tools, through the
     * model; tool calls in the reply are the next turn, text is the final answer (or refusal).
     */
    public static Agent chatModel(String name, ChatModel model) {
        if (model == null) throw new IllegalArgumentException("no chat model given");
        return new ChatModelAgent(name, (messages, tools) -> {
            List<ChatMessage> sent = Messages.toLangChain4j(messages);
            ChatRequest.Builder request = ChatRequest.builder().messages(sent);
            if (!tools.isEmpty()) request.toolSpecifications(Tools.specifications(tools));
            ChatResponse r = model.chat(request.build());
            if (r == null || r.aiMessage() == null) throw new IllegalStateException("the model returned no message");
            return new ChatModelAgent.Exchange(Messages.of(sent), Messages.of(r.aiMessage()), Messages.usage(r.tokenUsage()));
        });
    }

    @Override
    public String run(FrameworkEpisode episode) throws Exception {
        return handler.run(new LangChain4jEpisode(episode, model));
    }
}
