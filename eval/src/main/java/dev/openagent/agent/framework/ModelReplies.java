package dev.openagent.agent.framework;

import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Protocol;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How a model's reply becomes an action, as the harness's {@code openai} agent reads one: tool calls
 * are one turn as {@link ChatCodec#toolCallsAction} reads it (a lone {@code ask_user} call is a question to the user);
 * text is the final answer or, with the refusal marker, a refusal; in a text-command environment
 * the text is the command.
 */
public final class ModelReplies {
    private ModelReplies() {}

    public static Action action(Message reply, Interface iface, int turn) {
        String text = reply.content() == null ? "" : reply.content();
        if (iface == Interface.TEXT_COMMAND) return Protocol.command(text);
        if (reply.toolCalls() == null || reply.toolCalls().isEmpty()) return Protocol.finalText(text);
        List<Message.ToolCall> raw = reply.toolCalls();
        List<String> ids = uniqueIds(raw.stream().map(Message.ToolCall::id).toList(), turn);
        List<Action.ToolCall> calls = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            calls.add(new Action.ToolCall(ids.get(i), raw.get(i).function().name(), raw.get(i).function().arguments()));
        }
        return ChatCodec.toolCallsAction(calls);
    }

    /** The calls' ids, with blank and repeated ones replaced by {@code call_<turn>_<i>}: the sandbox answers each id once. */
    public static List<String> uniqueIds(List<String> given, int turn) {
        Set<String> seen = new HashSet<>();
        List<String> out = new ArrayList<>(given.size());
        for (int i = 0; i < given.size(); i++) {
            String id = given.get(i);
            if (id == null || id.isBlank() || !seen.add(id)) id = "call_" + turn + "_" + i;
            seen.add(id);
            out.add(id);
        }
        return out;
    }
}
