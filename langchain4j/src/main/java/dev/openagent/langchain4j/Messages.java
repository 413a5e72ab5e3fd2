package dev.openagent.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.output.TokenUsage;
import dev.openagent.episode.Message;
import dev.openagent.episode.Usage;

import java.util.ArrayList;
import java.util.List;

/** LangChain4j chat messages to and from the sandbox's OpenAI-shaped {@link Message}s. */
final class Messages {
    private Messages() {}

    static List<Message> of(List<ChatMessage> messages) {
        List<Message> out = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) out.add(of(m));
        return out;
    }

    static Message of(ChatMessage m) {
        return switch (m) {
            case SystemMessage s -> Message.system(s.text());
            case UserMessage u -> Message.user(text(u));
            case AiMessage a when a.hasToolExecutionRequests() -> new Message("assistant", a.text(),
                    a.toolExecutionRequests().stream().map(r -> Message.ToolCall.of(r.id(), r.name(), r.arguments())).toList(), null, null, null);
            case AiMessage a -> Message.assistant(a.text());
            case ToolExecutionResultMessage t -> Message.tool(t.id(), t.toolName(), t.text(), null);
            default -> new Message(m.type().name().toLowerCase(java.util.Locale.ROOT), m.toString(), null, null, null, null);
        };
    }

    private static String text(UserMessage u) {
        if (u.hasSingleText()) return u.singleText();
        StringBuilder sb = new StringBuilder();
        for (Content c : u.contents()) {
            if (!sb.isEmpty()) sb.append('\n');
            sb.append(c instanceof TextContent t ? t.text() : "[" + c.type().name().toLowerCase(java.util.Locale.ROOT) + "]");
        }
        return sb.toString();
    }

    /** The sandbox's conversation as LangChain4j sends it. */
    static List<ChatMessage> toLangChain4j(List<Message> messages) {
        List<ChatMessage> out = new ArrayList<>(messages.size());
        for (Message m : messages) {
            String text = m.content() == null ? "" : m.content();
            out.add(switch (m.role()) {
                case "system" -> SystemMessage.from(text);
                case "assistant" -> m.toolCalls() == null ? AiMessage.from(text)
                        : AiMessage.from(m.toolCalls().stream().map(c -> ToolExecutionRequest.builder().id(c.id())
                                .name(c.function().name()).arguments(c.function().arguments()).build()).toList());
                case "tool" -> ToolExecutionResultMessage.from(m.toolCallId(), m.name(), text);
                default -> UserMessage.from(text);
            });
        }
        return out;
    }

    static Usage usage(TokenUsage u) {
        if (u == null) return new Usage(0, 0, 1);
        return new Usage(u.inputTokenCount() == null ? 0 : u.inputTokenCount(), u.outputTokenCount() == null ? 0 : u.outputTokenCount(), 1);
    }
}
