package dev.openagent.springai;

import dev.openagent.episode.Message;
import dev.openagent.episode.Usage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Spring AI chat messages to and from the sandbox's OpenAI-shaped {@link Message}s. */
final class Messages {
    private Messages() {}

    static List<Message> of(List<org.springframework.ai.chat.messages.Message> messages) {
        List<Message> out = new ArrayList<>(messages.size());
        for (var m : messages) {
            switch (m) {
                case SystemMessage s -> out.add(Message.system(s.getText()));
                case UserMessage u -> out.add(Message.user(u.getText()));
                case AssistantMessage a -> out.add(of(a));
                case ToolResponseMessage t -> t.getResponses().forEach(r -> out.add(Message.tool(r.id(), r.name(), r.responseData(), null)));
                default -> out.add(new Message(m.getMessageType().getValue().toLowerCase(Locale.ROOT), m.getText(), null, null, null, null));
            }
        }
        return out;
    }

    static Message of(AssistantMessage a) {
        if (!a.hasToolCalls()) return Message.assistant(a.getText());
        String text = a.getText() == null || a.getText().isBlank() ? null : a.getText(); // Spring AI writes "" beside tool calls
        return new Message("assistant", text, a.getToolCalls().stream()
                .map(c -> Message.ToolCall.of(c.id(), c.name(), c.arguments())).toList(), null, null, null);
    }

    /** The sandbox's conversation as Spring AI sends it (consecutive tool results are one tool response message). */
    static List<org.springframework.ai.chat.messages.Message> toSpringAi(List<Message> messages) {
        List<org.springframework.ai.chat.messages.Message> out = new ArrayList<>(messages.size());
        List<ToolResponseMessage.ToolResponse> results = new ArrayList<>();
        for (Message m : messages) {
            String text = m.content() == null ? "" : m.content();
            if (m.role().equals("tool")) {
                results.add(new ToolResponseMessage.ToolResponse(m.toolCallId(), m.name(), text));
                continue;
            }
            if (!results.isEmpty()) {
                out.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
                results.clear();
            }
            out.add(switch (m.role()) {
                case "system" -> new SystemMessage(text);
                case "assistant" -> m.toolCalls() == null ? new AssistantMessage(text)
                        : AssistantMessage.builder().content(text).toolCalls(m.toolCalls().stream().map(c ->
                                new AssistantMessage.ToolCall(c.id(), "function", c.function().name(), c.function().arguments())).toList()).build();
                default -> new UserMessage(text);
            });
        }
        if (!results.isEmpty()) out.add(ToolResponseMessage.builder().responses(List.copyOf(results)).build());
        return out;
    }

    /** The reply of a response (null when it has none). */
    static AssistantMessage reply(ChatResponse response) {
        return response == null || response.getResult() == null ? null : response.getResult().getOutput();
    }

    static Usage usage(ChatResponse response) {
        var u = response.getMetadata() == null ? null : response.getMetadata().getUsage();
        if (u == null) return new Usage(0, 0, 1);
        return new Usage(u.getPromptTokens() == null ? 0 : u.getPromptTokens(), u.getCompletionTokens() == null ? 0 : u.getCompletionTokens(), 1);
    }
}
