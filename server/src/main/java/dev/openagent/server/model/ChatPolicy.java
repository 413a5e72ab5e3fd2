package dev.openagent.server.model;

import dev.openagent.episode.Message;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * A policy as an OpenAI-compatible endpoint serves it: the conversation so far and the tools
 * offered in, the assistant's next message out (text, or tool calls). Implementations must be
 * safe to call from several threads at once; {@link #close} releases what they hold (a network's
 * native memory) once the server has stopped.
 */
public interface ChatPolicy extends AutoCloseable {
    /** The model id clients pass as {@code model}. */
    String id();

    /**
     * The next assistant message.
     *
     * @throws IllegalArgumentException when the conversation is not one this policy can continue
     *                                  (answered as a 400 with the message)
     */
    Message respond(List<Message> messages, List<ToolSpec> tools);

    @Override
    default void close() {}
}
