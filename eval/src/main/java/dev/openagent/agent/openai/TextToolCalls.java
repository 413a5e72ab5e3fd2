package dev.openagent.agent.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.chat.ChatCompletion;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The text tool protocol, for models served without a tool-call parser: the tools are described
 * in the system prompt, and calls are read from the assistant's plain text. Accepted, in order of
 * precedence: {@code <tool_call>...</tool_call>} tags (Hermes/Qwen style, several allowed),
 * fenced {@code ```json} blocks, and a bare JSON object (or array of them) in the text. A call is
 * an object with a {@code name} and {@code arguments} (also {@code parameters}, {@code args},
 * or OpenAI's {@code {"function": {...}}} shape).
 * <p>
 * Malformed output inside tags still becomes a call (with the raw text as its arguments, or an
 * empty name), so the environment answers it with an error observation instead of the model's
 * mistake vanishing. Outside tags, only well-formed JSON with a name and arguments counts, so an
 * answer that merely contains JSON is not mistaken for a call.
 */
public final class TextToolCalls {
    private static final Pattern TAG = Pattern.compile("<tool_call>\\s*(.*?)\\s*(?:</tool_call>|$)", Pattern.DOTALL);
    private static final Pattern FENCE = Pattern.compile("```[a-zA-Z_]*[ \\t]*\\n?(.*?)```", Pattern.DOTALL);
    private static final Pattern NAME = Pattern.compile("\"(?:name|tool)\"\\s*:\\s*\"([^\"]*)\"");
    private static final Pattern ARGUMENTS = Pattern.compile("\"(?:arguments|parameters|args)\"\\s*:\\s*(.*?)\\s*}?\\s*$", Pattern.DOTALL);

    private TextToolCalls() {}

    /** The calls in the text; empty when the text is a final message. Ids are left blank. */
    public static List<ChatCompletion.Call> parse(String text) {
        if (text == null || text.isBlank()) return List.of();
        List<ChatCompletion.Call> calls = new ArrayList<>();
        Matcher tag = TAG.matcher(text);
        boolean tagged = false;
        while (tag.find()) {
            tagged = true;
            calls.addAll(fromBlock(tag.group(1), true));
        }
        if (tagged) return calls;
        Matcher fence = FENCE.matcher(text);
        while (fence.find()) calls.addAll(fromBlock(fence.group(1), false));
        if (!calls.isEmpty()) return calls;
        for (int i = text.indexOf('{'), tries = 0; i >= 0 && tries < 20; i = text.indexOf('{', i + 1), tries++) {
            int start = i > 0 && text.charAt(i - 1) == '[' ? i - 1 : i;
            List<ChatCompletion.Call> found = fromBlock(text.substring(start), false);
            if (!found.isEmpty()) return found;
        }
        return List.of();
    }

    private static List<ChatCompletion.Call> fromBlock(String block, boolean lenient) {
        JsonNode node = null;
        try {
            node = Json.MAPPER.readTree(block); // reads the first JSON value; trailing text is ignored
        } catch (JsonProcessingException e) {
            // handled below
        }
        List<ChatCompletion.Call> out = new ArrayList<>();
        if (node != null && (node.isObject() || node.isArray())) {
            for (JsonNode item : node.isArray() ? node : List.of(node)) {
                ChatCompletion.Call c = toCall(item, lenient);
                if (c != null) out.add(c);
            }
            if (!out.isEmpty() || !lenient) return out;
        } else if (!lenient) {
            return out;
        }
        // Inside tags but not a readable call: keep what can be recovered so the environment can say what is wrong.
        Matcher n = NAME.matcher(block);
        Matcher a = ARGUMENTS.matcher(block);
        out.add(new ChatCompletion.Call("", n.find() ? n.group(1) : "", a.find() ? a.group(1) : block));
        return out;
    }

    private static ChatCompletion.Call toCall(JsonNode o, boolean lenient) {
        if (!o.isObject()) return null;
        JsonNode fn = o.path("function").isObject() ? o.get("function") : o;
        JsonNode name = first(fn, "name", "tool", "tool_name");
        JsonNode args = first(fn, "arguments", "parameters", "args", "input");
        if (name == null || !name.isTextual()) return null;
        if (args == null && !lenient) return null;
        return new ChatCompletion.Call("", name.asText(), ChatCodec.argumentsText(args));
    }

    private static JsonNode first(JsonNode o, String... keys) {
        for (String k : keys) if (o.has(k)) return o.get(k);
        return null;
    }

    /** The system-prompt block that describes the tools and the call format. */
    public static String toolBlock(List<ToolSpec> tools) {
        StringBuilder sb = new StringBuilder("\n\n# Tools\n")
                .append("You can call the tools below. Each tool's \"parameters\" is the JSON Schema of its arguments.\n<tools>\n");
        for (ToolSpec t : tools) sb.append(Json.write(ChatCodec.function(t))).append('\n');
        return sb.append("</tools>\n\n")
                .append("To call a tool, reply with nothing but:\n<tool_call>\n{\"name\": \"TOOL_NAME\", \"arguments\": {ARGUMENTS AS JSON}}\n</tool_call>\n")
                .append("You may make several calls in one reply, each in its own <tool_call> tags. ")
                .append("Results come back in <tool_response> tags. When you are done, reply in plain text without any tool call.\n")
                .toString();
    }

    /** An assistant tool call written back in the format the model was asked to use (arguments that are not a JSON object verbatim, as text). */
    public static String render(String name, String arguments) {
        ObjectNode object = ChatCodec.argumentsObject(arguments).orElse(null);
        JsonNode args = object != null ? object : Json.NODES.textNode(arguments);
        return "<tool_call>\n" + Json.write(ChatCodec.namedCall(name, args)) + "\n</tool_call>";
    }
}
