package dev.openagent.chat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;
import java.util.Optional;

/**
 * The OpenAI chat shapes, written in one place for everything that speaks them: the request
 * bodies of the {@code openai} agent, the replies of {@code serve model} and the messages of
 * {@code serve env}, and the training export. The shapes differ only where their readers do
 * ({@link Dialect}); everything else (field order, the tool and tool-call objects) is shared, so
 * equal messages are equal bytes everywhere. {@link ChatCompletion} reads what {@link #completion}
 * writes.
 */
public final class ChatCodec {
    private ChatCodec() {}

    /** Who reads the messages: this decides content beside tool calls, the arguments' form and names. */
    public enum Dialect {
        /**
         * A request to a chat completions endpoint: content is never null (some servers' templates
         * reject it) and is empty beside tool calls; no names.
         */
        REQUEST(Content.EMPTY_BESIDE_CALLS, false, false),
        /** As an API answers: content as it is (null on an assistant turn without text), names when known. */
        RESPONSE(Content.AS_IS, false, true),
        /** OpenAI fine-tuning data: no content beside tool calls, arguments as JSON text, no names. */
        FINE_TUNING(Content.NONE_BESIDE_CALLS, false, false),
        /** Hugging Face chat templates and TRL: as fine-tuning, but arguments as JSON objects and tool results name their tool. */
        CHAT_TEMPLATE(Content.NONE_BESIDE_CALLS, true, true);

        private final Content content;
        private final boolean argumentsAsObjects;
        private final boolean names;

        Dialect(Content content, boolean argumentsAsObjects, boolean names) {
            this.content = content;
            this.argumentsAsObjects = argumentsAsObjects;
            this.names = names;
        }
    }

    private enum Content { EMPTY_BESIDE_CALLS, AS_IS, NONE_BESIDE_CALLS }

    // ---- writing ----

    /** One message: {@code role}, {@code content}, {@code tool_calls}, {@code tool_call_id}, {@code name}, in that order. */
    public static ObjectNode message(Message m, Dialect d) {
        ObjectNode o = Json.object();
        o.put("role", m.role());
        boolean calls = m.toolCalls() != null;
        switch (d.content) {
            case EMPTY_BESIDE_CALLS -> o.put("content", calls || m.content() == null ? "" : m.content());
            case NONE_BESIDE_CALLS -> {
                if (!calls) o.put("content", m.content() == null ? "" : m.content());
            }
            case AS_IS -> {
                if (m.content() != null) o.put("content", m.content());
                else if (m.role().equals("assistant")) o.putNull("content");
            }
        }
        if (calls) o.set("tool_calls", toolCalls(m.toolCalls(), d));
        if (m.toolCallId() != null) o.put("tool_call_id", m.toolCallId());
        if (d.names && m.name() != null) o.put("name", m.name());
        return o;
    }

    /** Tool calls: {@code {"id": ..., "type": "function", "function": {"name": ..., "arguments": ...}}} each. */
    public static ArrayNode toolCalls(List<Message.ToolCall> calls, Dialect d) {
        ArrayNode out = Json.array();
        for (Message.ToolCall c : calls) {
            ObjectNode f = out.addObject().put("id", c.id()).put("type", "function").putObject("function").put("name", c.function().name());
            if (d.argumentsAsObjects) f.set("arguments", argumentsOrRaw(c.function().arguments()));
            else f.put("arguments", c.function().arguments());
        }
        return out;
    }

    public static ArrayNode messages(List<Message> messages, Dialect d) {
        ArrayNode out = Json.array();
        for (Message m : messages) out.add(message(m, d));
        return out;
    }

    /** A tool as the {@code tools} field of a request shows it: {@code {"type":"function","function":{...}}}. */
    public static ArrayNode tools(List<ToolSpec> tools) {
        ArrayNode out = Json.array();
        for (ToolSpec t : tools) out.addObject().put("type", "function").set("function", function(t));
        return out;
    }

    /** A tool's function: {@code name}, {@code description}, {@code parameters} (also the shape of text-protocol and ShareGPT tool lists). */
    public static ObjectNode function(ToolSpec t) {
        ObjectNode f = Json.object().put("name", t.name()).put("description", t.description());
        f.set("parameters", t.parameters());
        return f;
    }

    /** A call written as an object ({@code {"name": ..., "arguments": ...}}), as text protocols and ShareGPT write them. */
    public static ObjectNode namedCall(String name, JsonNode arguments) {
        ObjectNode o = Json.object().put("name", name);
        o.set("arguments", arguments);
        return o;
    }

    /** Call arguments (JSON text) as an object: blank text is {@code {}}; empty when the text is not a JSON object. */
    public static Optional<ObjectNode> argumentsObject(String text) {
        if (text == null || text.isBlank()) return Optional.of(Json.object());
        try {
            return Json.MAPPER.readTree(text) instanceof ObjectNode o ? Optional.of(o) : Optional.empty();
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** Arguments as an object for formats that require one: text that is not an object (a malformed call) is kept under {@code raw}. */
    public static ObjectNode argumentsOrRaw(String text) {
        return argumentsObject(text).orElseGet(() -> Json.object().put("raw", text));
    }

    /**
     * A chat completion with one choice: the reply in the {@link Dialect#RESPONSE} dialect, its
     * finish reason ({@code tool_calls} or {@code stop}) and the usage.
     */
    public static ObjectNode completion(String id, long created, String model, Message reply, long promptTokens, long completionTokens) {
        ObjectNode out = Json.object().put("id", id).put("object", "chat.completion").put("created", created).put("model", model);
        ObjectNode choice = out.putArray("choices").addObject().put("index", 0);
        choice.set("message", message(reply, Dialect.RESPONSE));
        choice.putNull("logprobs");
        choice.put("finish_reason", reply.toolCalls() != null ? "tool_calls" : "stop");
        out.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return out;
    }

    // ---- reading ----

    /** Arguments as a lenient reader takes them: absent or null is empty, text is itself, anything else its JSON. */
    public static String argumentsText(JsonNode arguments) {
        if (arguments == null || arguments.isNull()) return "";
        return arguments.isTextual() ? arguments.asText() : arguments.toString();
    }

    /**
     * The action of an assistant turn that made tool calls: a lone call of {@value Protocol#ASK_USER}
     * is a question to the user (read by {@link Protocol#question}), anything else calls the tools.
     */
    public static Action toolCallsAction(List<Action.ToolCall> calls) {
        if (calls.size() == 1 && Protocol.ASK_USER.equals(calls.getFirst().name())) {
            return new Action.AskUser(Protocol.question(calls.getFirst().arguments()));
        }
        return new Action.CallTools(calls);
    }
}
