package dev.openagent.langchain4j;

import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.service.tool.ToolProvider;
import dev.openagent.agent.framework.FrameworkEpisode;

import java.util.List;

/**
 * One sandbox episode as a LangChain4j agent meets it: build the agent with {@link #chatModel()}
 * and {@link #toolProvider()} (in place of its model and its own tools), give it the
 * {@link #systemPrompt()} (or your own prompt with it) and send it the {@link #query()}.
 */
public final class LangChain4jEpisode {
    private final FrameworkEpisode episode;
    private final ChatModel chatModel;
    private final List<ToolSpecification> specifications;
    private final ToolProvider toolProvider;

    LangChain4jEpisode(FrameworkEpisode episode, ChatModel model) {
        this.episode = episode;
        this.chatModel = new EpisodeChatModel(model, episode);
        this.specifications = Tools.specifications(episode.tools());
        this.toolProvider = new SandboxToolProvider(episode, specifications);
    }

    /** The agent's model, reporting each call to the sandbox (the agent's transcript, tokens, the turns its tool calls make). */
    public ChatModel chatModel() { return chatModel; }

    /** The episode's tools as the shifts present them, executed by the sandbox. */
    public ToolProvider toolProvider() { return toolProvider; }

    /** The same tools as specifications, for agents that call {@link ChatModel#chat} themselves. */
    public List<ToolSpecification> toolSpecifications() { return specifications; }

    /** How to ask the user, answer and refuse, then the service's rules (which shifts may change): include it in the agent's system message. */
    public String systemPrompt() { return episode.systemPrompt(); }

    /** The user's request: the agent's first user message. */
    public String query() { return episode.query(); }

    /** The sandbox side of the episode (for agents that execute tool calls themselves: {@link FrameworkEpisode#call}). */
    public FrameworkEpisode sandbox() { return episode; }
}
