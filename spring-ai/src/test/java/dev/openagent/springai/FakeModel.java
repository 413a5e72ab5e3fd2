package dev.openagent.springai;

import dev.openagent.episode.Message;
import dev.openagent.fake.OracleChat;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A zero-latency Spring AI chat model whose reply is a function of the prompt; it keeps every prompt it was sent. */
final class FakeModel implements ChatModel {
    final List<Prompt> prompts = new CopyOnWriteArrayList<>();
    private final Function<Prompt, AssistantMessage> reply;

    FakeModel(Function<Prompt, AssistantMessage> reply) { this.reply = reply; }

    /** A model that plays the oracle on one episode (see {@link OracleChat}). */
    static FakeModel oracle(OracleChat oracle) {
        return new FakeModel(prompt -> assistant(oracle.next()));
    }

    static AssistantMessage assistant(Message m) {
        return (AssistantMessage) Messages.toSpringAi(List.of(m)).getFirst();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        return new ChatResponse(List.of(new Generation(reply.apply(prompt))),
                ChatResponseMetadata.builder().usage(new DefaultUsage(100, 5)).build());
    }

    /** Options that carry tools, as a real model's do (ChatClient adds tools only to such options). */
    @Override
    public ChatOptions getOptions() { return ToolCallingChatOptions.builder().build(); }
}
