package dev.openagent.server.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.Fields;
import dev.openagent.server.http.JsonHttp;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reading the OpenAI chat shapes a server is sent (tools, chat messages, assistant tool calls) and
 * our actions; {@link ChatCodec} writes them. Parsing is strict: a wrong type is an
 * {@link ApiError} naming the field.
 */
public final class OpenAiWire {
    private OpenAiWire() {}

    // ---- tools ----

    private static final Set<String> TOOL_FIELDS = Set.of("type", "function");
    private static final Set<String> FUNCTION_FIELDS = Set.of("name", "description", "parameters", "strict");

    /** Parses an OpenAI {@code tools} array. */
    public static List<ToolSpec> parseTools(JsonNode node) {
        if (node == null || node.isNull()) return List.of();
        if (!node.isArray()) throw ApiError.invalid("tools must be an array, not " + JsonHttp.kind(node));
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String where = "tools[" + i + "]";
            Fields t = Fields.of(node.get(i), where, TOOL_FIELDS);
            String type = t.optString("type", "function");
            if (!type.equals("function")) throw ApiError.invalid(where + ".type must be \"function\", not \"" + type + "\"");
            Fields f = Fields.of(t.raw("function"), where + ".function", FUNCTION_FIELDS);
            String name = f.string("name");
            if (name.isBlank()) throw ApiError.invalid(where + ".function.name is blank");
            JsonNode params = f.raw("parameters");
            ObjectNode schema;
            if (params == null || params.isNull()) {
                schema = Json.object().put("type", "object");
                schema.putObject("properties");
            } else if (params instanceof ObjectNode p) {
                schema = p;
            } else {
                throw ApiError.invalid(where + ".function.parameters must be a JSON Schema object, not " + JsonHttp.kind(params));
            }
            out.add(new ToolSpec(name, f.optString("description", ""), schema));
        }
        return out;
    }

    // ---- actions ----

    private static final Set<String> ACTION_FIELDS = Set.of("tool_calls", "answer", "refuse", "ask_user", "command",
            "role", "content", "refusal", "reasoning_content", "name");
    private static final Set<String> CALL_FIELDS = Set.of("id", "type", "function", "index");
    private static final Set<String> CALL_FUNCTION_FIELDS = Set.of("name", "arguments");

    /**
     * An action from its wire form: {@code {"tool_calls": [...]}} (OpenAI shape), {@code {"answer": text}},
     * {@code {"refuse": reason}}, {@code {"ask_user": question}}, {@code {"command": text}}, or an
     * OpenAI assistant message as a model returned it ({@code {"role":"assistant","content":...,"tool_calls":...}}:
     * tool calls if any, else the content as the final answer, a refusal when it starts with
     * {@value Protocol#REFUSAL_MARKER}).
     *
     * @param defaultIdPrefix ids for tool calls that come without one: prefix + position
     */
    public static Action parseAction(JsonNode node, String defaultIdPrefix) {
        Fields a = Fields.of(node, "action", ACTION_FIELDS);
        if (a.has("role") && !"assistant".equals(a.optString("role", ""))) {
            throw ApiError.invalid("action.role must be \"assistant\" when given");
        }
        JsonNode calls = a.raw("tool_calls");
        boolean hasCalls = calls != null && !calls.isNull() && !(calls.isArray() && calls.isEmpty());
        List<String> kinds = new ArrayList<>();
        for (String k : List.of("answer", "refuse", "ask_user", "command", "content")) if (a.has(k)) kinds.add(k);
        if (hasCalls) {
            kinds.remove("content");   // text beside tool calls is the model's commentary, as in the OpenAI API
            if (!kinds.isEmpty()) throw ApiError.invalid("action has tool_calls and " + kinds.getFirst() + "; give one kind of action");
            return new Action.CallTools(parseCalls(calls, defaultIdPrefix));
        }
        if (kinds.isEmpty()) {
            throw ApiError.invalid("action needs one of: tool_calls, answer, refuse, ask_user, command (or an assistant message with content)");
        }
        if (kinds.size() > 1) throw ApiError.invalid("action has both " + kinds.get(0) + " and " + kinds.get(1) + "; give exactly one");
        String kind = kinds.getFirst();
        String text = kind.equals("content") ? contentText(a.raw("content"), "action.content") : a.optString(kind, "");
        return switch (kind) {
            case "answer" -> new Action.Answer(text);
            case "refuse" -> new Action.Refuse(text);
            case "ask_user" -> new Action.AskUser(text);
            case "command" -> new Action.Command(text);
            default -> Protocol.finalText(text);
        };
    }

    private static List<Action.ToolCall> parseCalls(JsonNode calls, String defaultIdPrefix) {
        if (!calls.isArray()) throw ApiError.invalid("tool_calls must be an array, not " + JsonHttp.kind(calls));
        List<Action.ToolCall> out = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            String where = "tool_calls[" + i + "]";
            Fields c = Fields.of(calls.get(i), where, CALL_FIELDS);
            String type = c.optString("type", "function");
            if (!type.equals("function")) throw ApiError.invalid(where + ".type must be \"function\", not \"" + type + "\"");
            String id = c.optString("id", defaultIdPrefix + i);
            Fields f = Fields.of(c.raw("function"), where + ".function", CALL_FUNCTION_FIELDS);
            String name = f.string("name");
            JsonNode args = f.raw("arguments");
            String arguments;
            if (args == null || args.isNull()) arguments = "";
            else if (args.isTextual()) arguments = args.asText();
            else if (args.isObject()) arguments = Json.write(args);   // a convenience: arguments as an object
            else throw ApiError.invalid(where + ".function.arguments must be a JSON string (or an object), not " + JsonHttp.kind(args));
            out.add(new Action.ToolCall(id, name, arguments));
        }
        return out;
    }

    /** The wire form of an action; {@link #parseAction} reads it back to an equal action. */
    public static ObjectNode action(Action action) {
        ObjectNode o = Json.object();
        switch (action) {
            case Action.CallTools c -> o.set("tool_calls", ChatCodec.toolCalls(c.calls().stream()
                    .map(t -> Message.ToolCall.of(t.id(), t.name(), t.arguments())).toList(), ChatCodec.Dialect.RESPONSE));
            case Action.Answer a -> o.put("answer", a.text());
            case Action.Refuse r -> o.put("refuse", r.reason());
            case Action.AskUser q -> o.put("ask_user", q.question());
            case Action.Command cmd -> o.put("command", cmd.text());
        }
        return o;
    }

    // ---- messages ----

    private static final Set<String> MESSAGE_FIELDS = Set.of("role", "content", "tool_calls", "tool_call_id", "name",
            "refusal", "reasoning_content", "function_call", "annotations", "audio");
    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool");

    /** Parses an OpenAI {@code messages} array ({@code developer} is read as {@code system}). */
    public static List<Message> parseMessages(JsonNode node) {
        if (node == null || !node.isArray()) throw ApiError.invalid("messages must be an array, not " + JsonHttp.kind(node));
        List<Message> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            String where = "messages[" + i + "]";
            Fields m = Fields.of(node.get(i), where, MESSAGE_FIELDS);
            String role = m.string("role");
            if (!ROLES.contains(role)) throw ApiError.invalid(where + ".role must be one of " + ROLES.stream().sorted().toList() + ", not \"" + role + "\"");
            String content = m.has("content") ? contentText(m.raw("content"), where + ".content") : null;
            List<Message.ToolCall> calls = null;
            if (m.has("tool_calls")) {
                if (!role.equals("assistant")) throw ApiError.invalid(where + " has tool_calls but its role is " + role);
                calls = parseCalls(m.raw("tool_calls"), "call_" + i + "_").stream()
                        .map(c -> Message.ToolCall.of(c.id(), c.name(), c.arguments())).toList();
            }
            String toolCallId = m.optString("tool_call_id", null);
            if (role.equals("tool") && toolCallId == null) throw ApiError.invalid(where + " is a tool message without tool_call_id");
            out.add(new Message(role.equals("developer") ? "system" : role, content, calls, toolCallId, m.optString("name", null), null));
        }
        return out;
    }

    /** Message content: a string, or an array of content parts whose text parts are joined. */
    public static String contentText(JsonNode content, String where) {
        if (content == null || content.isNull()) return "";
        if (content.isTextual()) return content.asText();
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < content.size(); i++) {
                JsonNode part = content.get(i);
                if (!part.isObject()) throw ApiError.invalid(where + "[" + i + "] must be a content part object, not " + JsonHttp.kind(part));
                String type = part.path("type").asText("text");
                if (!type.equals("text")) throw ApiError.invalid(where + "[" + i + "] is a '" + type + "' part; only text parts are supported");
                JsonNode text = part.get("text");
                if (text == null || !text.isTextual()) throw ApiError.invalid(where + "[" + i + "].text must be a string");
                sb.append(text.asText());
            }
            return sb.toString();
        }
        throw ApiError.invalid(where + " must be a string or an array of text parts, not " + JsonHttp.kind(content));
    }
}
