package dev.openagent.export;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks an exported record against the documented shape of its format (what the trainers that
 * read it require), so an export never writes a line a trainer would reject:
 * <ul>
 *   <li>OpenAI chat fine-tuning: only {@code messages}, {@code tools}, {@code parallel_tool_calls};
 *       roles system/user/assistant/tool; assistant turns carry content or {@code tool_calls}
 *       ({@code id}, {@code type: function}, {@code function.name}, {@code function.arguments} as a JSON
 *       string); every tool message answers an earlier call id; function names match
 *       {@code ^[a-zA-Z0-9_-]{1,64}$}; the last message is the assistant's.</li>
 *   <li>ShareGPT (LLaMA-Factory): {@code conversations} of {@code from}/{@code value}; human and
 *       observation at odd positions, gpt and function_call at even ones; function_call values are
 *       {@code {"name", "arguments"}} JSON; {@code tools} is a JSON string of {@code name}/{@code
 *       description}/{@code parameters} objects; it ends with a gpt turn.</li>
 *   <li>messages (Hugging Face chat templates / TRL): OpenAI-style messages whose tool-call
 *       arguments are JSON objects and whose tool messages name their tool.</li>
 * </ul>
 */
public final class ExportFormats {
    private static final Pattern FUNCTION_NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final Set<String> ROLES = Set.of("system", "user", "assistant", "tool");

    private ExportFormats() {}

    /** Every way the record departs from the format; empty when it conforms. */
    public static List<String> problems(JsonNode record, TrainingExport.Format format) {
        List<String> p = new ArrayList<>();
        if (record == null || !record.isObject()) {
            p.add("record is not a JSON object");
            return p;
        }
        switch (format) {
            case OPENAI -> {
                onlyKeys(record, Set.of("messages", "tools", "parallel_tool_calls"), p);
                chat(record, true, p);
            }
            case MESSAGES -> chat(record, false, p);
            case SHAREGPT -> sharegpt(record, p);
        }
        return p;
    }

    private static void chat(JsonNode record, boolean argumentsAsText, List<String> p) {
        functionTools(record.get("tools"), p);
        JsonNode messages = record.get("messages");
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            p.add("messages must be a non-empty array");
            return;
        }
        Set<String> callIds = new HashSet<>();
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String at = "messages[" + i + "]";
            String role = m.path("role").asText("");
            if (!ROLES.contains(role)) {
                p.add(at + ": role '" + role + "' is not system, user, assistant or tool");
                continue;
            }
            JsonNode calls = m.get("tool_calls");
            if (role.equals("assistant") && calls != null) {
                if (!calls.isArray() || calls.isEmpty()) p.add(at + ": tool_calls must be a non-empty array");
                else for (JsonNode c : calls) toolCall(c, at, argumentsAsText, callIds, p);
            } else if (!m.path("content").isTextual()) {
                p.add(at + ": " + role + " message needs string content");
            }
            if (role.equals("tool")) {
                String id = m.path("tool_call_id").asText("");
                if (!callIds.contains(id)) p.add(at + ": tool message answers unknown call id '" + id + "'");
                if (!argumentsAsText && !m.path("name").isTextual()) p.add(at + ": tool message must name its tool");
            }
            if (!role.equals("assistant") && calls != null) p.add(at + ": only assistant messages carry tool_calls");
        }
        if (!messages.get(messages.size() - 1).path("role").asText("").equals("assistant")) {
            p.add("the last message must be the assistant's");
        }
    }

    /**
     * One tool call. A call may name a tool missing from {@code tools}: under obs.redirect at full
     * severity the replacement is named only in an observation, and the example shows the tools as
     * the agent saw them at the start.
     */
    private static void toolCall(JsonNode c, String at, boolean argumentsAsText, Set<String> callIds, List<String> p) {
        if (!c.path("id").isTextual()) p.add(at + ": tool call without an id");
        else callIds.add(c.get("id").asText());
        if (!c.path("type").asText("").equals("function")) p.add(at + ": tool call type must be 'function'");
        JsonNode f = c.path("function");
        String name = f.path("name").asText("");
        if (!FUNCTION_NAME.matcher(name).matches()) p.add(at + ": function name '" + name + "' is not ^[a-zA-Z0-9_-]{1,64}$");
        JsonNode args = f.get("arguments");
        if (argumentsAsText) {
            if (args == null || !args.isTextual()) p.add(at + ": function.arguments must be a JSON string");
            else if (!parsesToObject(args.asText())) p.add(at + ": function.arguments is not a JSON object in text");
        } else if (args == null || !args.isObject()) {
            p.add(at + ": function.arguments must be a JSON object");
        }
    }

    private static void functionTools(JsonNode tools, List<String> p) {
        if (tools == null || !tools.isArray()) {
            p.add("tools must be an array");
            return;
        }
        for (int i = 0; i < tools.size(); i++) {
            JsonNode t = tools.get(i);
            if (!t.path("type").asText("").equals("function")) p.add("tools[" + i + "]: type must be 'function'");
            JsonNode f = t.path("function");
            String name = f.path("name").asText("");
            if (!FUNCTION_NAME.matcher(name).matches()) p.add("tools[" + i + "]: name '" + name + "' is not ^[a-zA-Z0-9_-]{1,64}$");
            if (!f.path("parameters").path("type").asText("").equals("object")) p.add("tools[" + i + "]: parameters must be an object schema");
        }
    }

    private static void sharegpt(JsonNode record, List<String> p) {
        onlyKeys(record, Set.of("conversations", "system", "tools"), p);
        if (record.has("system") && !record.get("system").isTextual()) p.add("system must be a string");
        JsonNode toolsText = record.get("tools");
        if (toolsText != null) {
            JsonNode parsed = toolsText.isTextual() ? parse(toolsText.asText()) : null;
            if (parsed == null || !parsed.isArray()) {
                p.add("tools must be a JSON string holding an array");
            } else {
                for (JsonNode t : parsed) {
                    if (!t.path("name").isTextual() || !t.path("parameters").isObject()) p.add("tools: each tool needs name and parameters");
                }
            }
        }
        JsonNode conv = record.get("conversations");
        if (conv == null || !conv.isArray() || conv.isEmpty()) {
            p.add("conversations must be a non-empty array");
            return;
        }
        for (int i = 0; i < conv.size(); i++) {
            JsonNode turn = conv.get(i);
            String from = turn.path("from").asText("");
            boolean oddPosition = i % 2 == 0; // 1-based odd
            boolean ok = oddPosition ? from.equals("human") || from.equals("observation") : from.equals("gpt") || from.equals("function_call");
            if (!ok) p.add("conversations[" + i + "]: '" + from + "' may not stand at position " + (i + 1));
            if (!turn.path("value").isTextual()) p.add("conversations[" + i + "]: value must be a string");
            if (from.equals("function_call")) {
                JsonNode v = parse(turn.path("value").asText(""));
                List<JsonNode> calls = new ArrayList<>();
                if (v != null && v.isArray()) v.forEach(calls::add);
                else if (v != null) calls.add(v);
                if (calls.isEmpty()) p.add("conversations[" + i + "]: function_call value is not JSON");
                for (JsonNode c : calls) {
                    if (!c.path("name").isTextual() || !c.path("arguments").isObject()) {
                        p.add("conversations[" + i + "]: function_call needs name and an arguments object");
                    }
                }
            }
        }
        if (!conv.get(conv.size() - 1).path("from").asText("").equals("gpt")) p.add("conversations must end with a gpt turn");
    }

    private static void onlyKeys(JsonNode record, Set<String> allowed, List<String> p) {
        for (Iterator<String> it = record.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!allowed.contains(k)) p.add("unexpected key '" + k + "'");
        }
    }

    private static boolean parsesToObject(String text) {
        JsonNode n = parse(text);
        return n != null && n.isObject();
    }

    private static JsonNode parse(String text) {
        try {
            return Json.MAPPER.readTree(text);
        } catch (Exception e) {
            return null;
        }
    }
}
