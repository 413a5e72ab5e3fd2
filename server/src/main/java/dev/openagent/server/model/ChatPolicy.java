package dev.openagent.server.model;

import dev.openagent.episode.Message;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * A policy as an OpenAI-compatible endpoint serves it: the conversation so far and the tools
 * offered in, the assistant's next message out (text, or tool calls). Implementations must be
 * safe to call from several threads at once.
 */
public interface ChatPolicy {
    /** The model id clients pass as {@code model}. */
    String id();

    /**
     * The next assistant message.
     *
     * @throws IllegalArgumentException when the conversation is not one this policy can continue
     *                                  (answered as a 400 with the message)
     */
    Message respond(List<Message> messages, List<ToolSpec> tools);
}
