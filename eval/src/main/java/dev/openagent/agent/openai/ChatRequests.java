package dev.openagent.agent.openai;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Request bodies for {@code /chat/completions}, rendered from the episode's {@link Message}s (the
 * same messages its trajectory records). Natively, tool calls and results keep the OpenAI shape
 * ({@link ChatCodec.Dialect#REQUEST});
 * in the text protocol calls become {@code <tool_call>} text and results become user messages in
 * {@code <tool_response>} tags, for servers whose chat template knows no tool roles.
 * <p>
 * One instance per episode: the fixed parts of the body (model, tools, sampling) are serialised
 * once, and native messages once each as the conversation grows, since every turn resends the
 * whole conversation. Field order is fixed, so equal requests are equal bytes (the cache key).
 */
final class ChatRequests {
    private final ToolProtocol protocol;
    private final String head;
    private final String tail;
    private final List<String> rendered = new ArrayList<>();

    ChatRequests(OpenAiConfig config, List<ToolSpec> tools, int trial) {
        this.protocol = config.protocol();
        this.head = "{\"model\":" + Json.write(config.model()) + ",\"messages\":[";
        ObjectNode rest = Json.object();
        if (protocol == ToolProtocol.NATIVE && !tools.isEmpty()) rest.set("tools", ChatCodec.tools(tools));
        if (config.temperature() != null) rest.put("temperature", config.temperature());
        if (config.maxTokens() != null) rest.put("max_tokens", config.maxTokens());
        if (config.seed() != null) rest.put("seed", config.seed() + trial);
        rest.put("stream", false);
        this.tail = "]," + Json.write(rest).substring(1);
    }

    /** The body for the conversation so far; {@code messages} only ever grows between calls. */
    String body(List<Message> messages) {
        StringBuilder sb = new StringBuilder(head);
        if (protocol == ToolProtocol.NATIVE) {
            for (int i = rendered.size(); i < messages.size(); i++) {
                rendered.add(Json.write(ChatCodec.message(messages.get(i), ChatCodec.Dialect.REQUEST)));
            }
            for (int i = 0; i < messages.size(); i++) {
                if (i > 0) sb.append(',');
                sb.append(rendered.get(i));
            }
        } else {
            String array = Json.write(textMessages(messages));
            sb.append(array, 1, array.length() - 1);
        }
        return sb.append(tail).toString();
    }

    static ArrayNode textMessages(List<Message> messages) {
        ArrayNode out = Json.array();
        String role = null;
        StringBuilder content = new StringBuilder();
        for (Message m : messages) {
            String r;
            String text;
            if (m.toolCalls() != null) {
                r = "assistant";
                StringBuilder sb = new StringBuilder();
                for (Message.ToolCall c : m.toolCalls()) {
                    if (!sb.isEmpty()) sb.append('\n');
                    sb.append(TextToolCalls.render(c.function().name(), c.function().arguments()));
                }
                text = sb.toString();
            } else if (m.role().equals("tool")) {
                r = "user";
                text = "<tool_response name=\"" + m.name() + "\">\n" + (m.content() == null ? "" : m.content()) + "\n</tool_response>";
            } else {
                r = m.role();
                text = m.content() == null ? "" : m.content();
            }
            // Consecutive messages of one role are merged: many templates require alternating turns.
            if (r.equals(role) && !r.equals("system")) {
                content.append("\n").append(text);
            } else {
                if (role != null) out.addObject().put("role", role).put("content", content.toString());
                role = r;
                content.setLength(0);
                content.append(text);
            }
        }
        if (role != null) out.addObject().put("role", role).put("content", content.toString());
        return out;
    }
}
