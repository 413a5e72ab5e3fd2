package dev.openagent.springai;

import dev.openagent.agent.framework.FrameworkEpisode;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

import java.util.List;

/**
 * One sandbox episode as a Spring AI agent meets it: build the {@code ChatClient} on
 * {@link #chatModel()} and give it {@link #toolCallbacks()} (in place of its own tools), the
 * {@link #systemPrompt()} (or your own prompt with it) and the {@link #query()}. The ChatClient's
 * tool-calling advisor runs the loop, as in production.
 */
public final class SpringAiEpisode {
    private final FrameworkEpisode episode;
    private final ChatModel chatModel;
    private final List<ToolCallback> toolCallbacks;

    SpringAiEpisode(FrameworkEpisode episode, ChatModel model) {
        this.episode = episode;
        this.chatModel = new EpisodeChatModel(model, episode);
        this.toolCallbacks = episode.tools().stream().<ToolCallback>map(t -> new SandboxToolCallback(episode, t)).toList();
    }

    /** The agent's model, reporting each call to the sandbox (the agent's transcript, tokens, the turns its tool calls make). */
    public ChatModel chatModel() { return chatModel; }

    /** The episode's tools as the shifts present them, executed by the sandbox. */
    public List<ToolCallback> toolCallbacks() { return toolCallbacks; }

    /** The same tools as a provider. */
    public ToolCallbackProvider toolCallbackProvider() { return ToolCallbackProvider.from(toolCallbacks); }

    /** How to ask the user, answer and refuse, then the service's rules (which shifts may change): include it in the agent's system message. */
    public String systemPrompt() { return episode.systemPrompt(); }

    /** The user's request: the agent's user message. */
    public String query() { return episode.query(); }

    /** The sandbox side of the episode. */
    public FrameworkEpisode sandbox() { return episode; }
}
