package dev.openagent.server.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.sandbox.Commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A chat conversation read back into the episode an agent saw: the start (system prompt, the
 * user's request, the tools the request offers) and each earlier assistant turn as the action it
 * took with the observations that followed. The inverse of {@link dev.openagent.episode.Conversation},
 * which is how the harness's {@code openai} agent writes an episode as messages; {@link #reply}
 * writes the next action back as the assistant message that agent reads.
 *
 * <p>Observations are rebuilt from text: a tool result's payload is its text parsed as JSON (what
 * environments print), and an error is read from the {@code Error [CODE]: message} form tool errors
 * take. A request without tools is a text-command episode, where assistant text is a command.
 */
public record ChatTranscript(Start start, List<Turn> turns) {
    /** One earlier assistant turn: what it did and what came back (possibly nothing yet). */
    public record Turn(Action action, Step step) {}

    private static final Pattern ERROR = Pattern.compile("^Error \\[([A-Z_]+)]: (.*)$", Pattern.DOTALL);

    public ChatTranscript {
        turns = List.copyOf(turns);
    }

    /**
     * Reads a conversation: an optional system message, the user's request, then assistant turns,
     * each followed by the tool and user messages that answered it.
     *
     * @throws IllegalArgumentException when the messages are not in that order
     */
    public static ChatTranscript of(List<Message> messages, List<ToolSpec> tools) {
        Interface iface = tools.isEmpty() ? Interface.TEXT_COMMAND : Interface.FUNCTION_CALL;
        int i = 0;
        String system = "";
        if (i < messages.size() && messages.get(i).role().equals("system")) system = text(messages.get(i++));
        if (i >= messages.size() || !messages.get(i).role().equals("user")) {
            throw new IllegalArgumentException("the conversation must start with the user's request (after an optional system message)");
        }
        Start start = new Start(system, text(messages.get(i++)), tools);
        List<Turn> turns = new ArrayList<>();
        while (i < messages.size()) {
            Message m = messages.get(i++);
            if (!m.role().equals("assistant")) {
                throw new IllegalArgumentException("messages[" + (i - 1) + "]: expected an assistant message, got " + m.role());
            }
            Action action = action(m, iface);
            List<Observation> observations = new ArrayList<>();
            while (i < messages.size() && !messages.get(i).role().equals("assistant")) {
                observations.add(observation(messages.get(i++), m, action));
            }
            turns.add(new Turn(action, Step.of(observations)));
        }
        return new ChatTranscript(start, turns);
    }

    /**
     * The action an assistant message took, as the harness's {@code openai} agent decodes a reply:
     * tool calls (a lone {@code ask_user} call is a question), else the final answer or refusal; in
     * a text-command episode the text is a command ({@code ask <question>} a question).
     */
    private static Action action(Message m, Interface iface) {
        if (m.toolCalls() != null && !m.toolCalls().isEmpty()) {
            return ChatCodec.toolCallsAction(m.toolCalls().stream()
                    .map(c -> new Action.ToolCall(c.id(), c.function().name(), c.function().arguments())).toList());
        }
        if (iface == Interface.FUNCTION_CALL) return Protocol.finalText(text(m));
        Action command = Protocol.command(text(m));
        if (command instanceof Action.Command c) {
            String question = Commands.after(Commands.normalize(c.text()), Protocol.ASK_COMMAND);
            if (question != null) return new Action.AskUser(question);
        }
        return command;
    }

    private static String text(Message m) { return m.content() == null ? "" : m.content(); }

    /** What the agent observed, rebuilt from one message that followed its turn. */
    private static Observation observation(Message o, Message assistant, Action action) {
        boolean asked = action instanceof Action.AskUser;
        String content = text(o);
        return switch (o.role()) {
            case "tool" -> {
                String name = o.name();
                if (assistant.toolCalls() != null) {
                    for (Message.ToolCall c : assistant.toolCalls()) {
                        if (c.id().equals(o.toolCallId())) name = c.function().name();
                    }
                }
                if (asked && Protocol.ASK_USER.equals(name)) yield Observation.user(content);
                Matcher err = ERROR.matcher(content);
                if (err.matches()) {
                    ToolError.Code code = code(err.group(1));
                    if (code != null) yield Observation.toolError(o.toolCallId(), name, ToolError.of(code, err.group(2)));
                }
                yield Observation.tool(o.toolCallId(), name, content, payload(content));
            }
            case "user" -> asked ? Observation.user(content) : Observation.env(content, null);
            default -> throw new IllegalArgumentException("a " + o.role() + " message cannot follow an assistant turn");
        };
    }

    private static ToolError.Code code(String name) {
        try {
            return ToolError.Code.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static JsonNode payload(String text) {
        String t = text.strip();
        if (!(t.startsWith("{") || t.startsWith("["))) return null;
        try {
            return Json.MAPPER.readTree(t);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /**
     * The next action as the assistant's reply. In a function-call episode a question is a call of
     * the {@code ask_user} tool when the request offers it; in a text-command episode (no tools)
     * plain text is a command, so a question is {@code ask <question>} and the final answer carries
     * {@value Protocol#FINAL_ANSWER}, as the harness's chat agent reads them.
     */
    public Message reply(Action action) {
        List<ToolSpec> tools = start.tools();
        Interface iface = tools.isEmpty() ? Interface.TEXT_COMMAND : Interface.FUNCTION_CALL;
        return switch (action) {
            case Action.CallTools c -> Message.assistantCalls(c.calls().stream()
                    .map(t -> Message.ToolCall.of(t.id(), t.name(), t.arguments())).toList());
            case Action.AskUser q -> tools.stream().anyMatch(t -> t.name().equals(Protocol.ASK_USER))
                    ? Message.assistantCalls(List.of(Message.ToolCall.of("ask_" + turns.size(), Protocol.ASK_USER,
                            Json.write(Map.of("question", q.question())))))
                    : Message.assistant(iface == Interface.TEXT_COMMAND ? Protocol.ASK_COMMAND + " " + q.question() : q.question());
            case Action.Command cmd -> Message.assistant(cmd.text());
            case Action.Answer a -> Message.assistant(Protocol.finalText(a, iface));
            case Action.Refuse r -> Message.assistant(Protocol.finalText(r, iface));
        };
    }
}
