package dev.openagent.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of a chat completion response (as {@link ChatCodec#completion} writes it) the agent uses: the first choice's text and tool calls,
 * and the token usage. {@link #parse} rejects envelopes that carry no choice at all (a server
 * fault, retried); what the model wrote inside a choice is never rejected here, however
 * malformed: the environment judges it.
 */
public record ChatCompletion(String content, List<Call> toolCalls, String finishReason, long promptTokens,
                             long completionTokens) {

    /** A tool call as the model produced it: the id may be blank, arguments are raw text. */
    public record Call(String id, String name, String arguments) {}

    public ChatCompletion {
        toolCalls = List.copyOf(toolCalls);
    }

    /** The response envelope is unusable (not JSON, no choices, no message): retried like a 5xx. */
    public static final class BadResponse extends Exception {
        public BadResponse(String message) { super(message, null, false, false); }
    }

    public static ChatCompletion parse(String body) throws BadResponse {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new BadResponse("response is not JSON: " + abbreviate(body));
        }
        if (root == null || !root.isObject()) throw new BadResponse("response is not a JSON object: " + abbreviate(body));
        if (root.has("error") && !root.has("choices")) throw new BadResponse("server error: " + abbreviate(root.get("error").toString()));
        JsonNode choices = root.path("choices");
        if (!choices.isArray() || choices.isEmpty()) throw new BadResponse("response has no choices");
        JsonNode message = choices.get(0).path("message");
        if (!message.isObject()) throw new BadResponse("first choice has no message");
        List<Call> calls = new ArrayList<>();
        for (JsonNode c : message.path("tool_calls")) {
            JsonNode f = c.path("function");
            calls.add(new Call(c.path("id").asText(""), f.path("name").asText(""), ChatCodec.argumentsText(f.get("arguments"))));
        }
        JsonNode usage = root.path("usage");
        return new ChatCompletion(text(message.get("content")), calls, choices.get(0).path("finish_reason").asText(null),
                usage.path("prompt_tokens").asLong(0), usage.path("completion_tokens").asLong(0));
    }

    /** Content is a string, null, or (some servers) an array of text parts. */
    private static String text(JsonNode content) {
        if (content == null || content.isNull()) return "";
        if (content.isTextual()) return content.asText();
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : content) {
                if (part.isTextual()) sb.append(part.asText());
                else if (part.has("text")) sb.append(part.get("text").asText());
            }
            return sb.toString();
        }
        return content.toString();
    }

    public static String abbreviate(String s) {
        if (s == null) return "";
        String one = s.replaceAll("\\s+", " ").strip();
        return one.length() <= 200 ? one : one.substring(0, 197) + "...";
    }
}
