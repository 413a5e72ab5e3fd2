package dev.openagent.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.TokenUsage;
import dev.openagent.episode.Message;
import dev.openagent.fake.OracleChat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** Zero-latency LangChain4j chat models for tests and the benchmark. */
final class FakeModels {
    private FakeModels() {}

    /** A model whose reply is a function of the request; it keeps every request it was sent. */
    static final class Scripted implements ChatModel {
        final List<ChatRequest> requests = new CopyOnWriteArrayList<>();
        private final Function<ChatRequest, AiMessage> reply;

        Scripted(Function<ChatRequest, AiMessage> reply) { this.reply = reply; }

        @Override
        public ChatResponse doChat(ChatRequest request) {
            requests.add(request);
            return ChatResponse.builder().aiMessage(reply.apply(request)).tokenUsage(new TokenUsage(100, 5)).build();
        }
    }

    /** A model that plays the oracle on one episode (see {@link OracleChat}). */
    static Scripted oracle(OracleChat oracle) {
        return new Scripted(request -> aiMessage(oracle.next()));
    }

    static AiMessage aiMessage(Message m) {
        return (AiMessage) Messages.toLangChain4j(List.of(m)).getFirst();
    }
}
