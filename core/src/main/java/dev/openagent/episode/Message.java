package dev.openagent.episode;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/**
 * One chat message, shaped like the OpenAI chat format (system, user, assistant with tool calls,
 * tool results). {@code error} is our addition on tool messages: the error code, when the call failed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Message(String role, String content,
                      @JsonProperty("tool_calls") List<ToolCall> toolCalls,
                      @JsonProperty("tool_call_id") String toolCallId,
                      String name,
                      String error) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolCall(String id, String type, Function function) {
        public static ToolCall of(String id, String name, String arguments) {
            return new ToolCall(id, "function", new Function(name, arguments));
        }
    }

    public record Function(String name, String arguments) {}

    public Message {
        toolCalls = toolCalls == null || toolCalls.isEmpty() ? null : List.copyOf(toolCalls);
    }

    public static Message system(String content) { return new Message("system", content, null, null, null, null); }

    public static Message user(String content) { return new Message("user", content, null, null, null, null); }

    public static Message assistant(String content) { return new Message("assistant", content, null, null, null, null); }

    public static Message assistantCalls(List<ToolCall> calls) { return new Message("assistant", null, calls, null, null, null); }

    public static Message tool(String callId, String name, String content, String error) {
        return new Message("tool", content, null, callId, name, error);
    }
}
