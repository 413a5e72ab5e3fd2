package dev.openagent.episode;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns an episode into chat messages, the one rendering every agent, trajectory and exporter
 * shares. A question to the user appears as a call of the {@code ask_user} tool answered by a tool
 * message; a text command as assistant text answered by a user message. In text-command episodes a
 * question is the command {@code ask <question>} and the final answer carries the {@link Protocol#FINAL_ANSWER}
 * marker, as the agent had to write them.
 */
public final class Conversation {
    private final List<Message> messages = new ArrayList<>();
    private String pendingAskId;
    private int asks;
    private int turns;
    private int toolCalls;
    private int toolErrors;
    private final Map<String, Integer> errorCodes = new TreeMap<>();

    /** How endings are written: a text-command agent marks its final answer (see {@link Protocol#FINAL_ANSWER}). */
    private final Interface iface;

    /** The conversation of a function-call episode. */
    public Conversation(Start start) {
        this(start, Interface.FUNCTION_CALL);
    }

    public Conversation(Start start, Interface iface) {
        this.iface = iface;
        messages.add(Message.system(start.systemPrompt()));
        messages.add(Message.user(start.query()));
    }

    public void add(Action action) {
        turns++;
        switch (action) {
            case Action.CallTools c -> {
                toolCalls += c.calls().size();
                messages.add(Message.assistantCalls(c.calls().stream()
                        .map(t -> Message.ToolCall.of(t.id(), t.name(), t.arguments())).toList()));
            }
            case Action.AskUser q when iface == Interface.TEXT_COMMAND -> messages.add(Message.assistant(Protocol.ASK_COMMAND + " " + q.question()));
            case Action.AskUser q -> {
                pendingAskId = "ask_" + (asks++);
                messages.add(Message.assistantCalls(List.of(Message.ToolCall.of(pendingAskId, Protocol.ASK_USER,
                        dev.openagent.json.Json.write(Map.of("question", q.question()))))));
            }
            case Action.Command cmd -> {
                toolCalls++;  // a text command is the text-command counterpart of a tool call (tool error rate)
                messages.add(Message.assistant(cmd.text()));
            }
            case Action.Answer a -> messages.add(Message.assistant(Protocol.finalText(a, iface)));
            case Action.Refuse r -> messages.add(Message.assistant(Protocol.finalText(r, iface)));
        }
    }

    public void add(Step step) {
        for (Observation o : step.observations()) {
            String code = o.error() == null ? null : o.error().code().name();
            if (code != null) {
                toolErrors++;
                errorCodes.merge(code, 1, Integer::sum);
            }
            switch (o.source()) {
                case TOOL -> messages.add(Message.tool(o.callId(), o.tool(), o.text(), code));
                case USER -> {
                    if (pendingAskId != null) {
                        messages.add(Message.tool(pendingAskId, Protocol.ASK_USER, o.text(), null));
                        pendingAskId = null;
                    } else {
                        messages.add(Message.user(o.text()));
                    }
                }
                case ENV -> messages.add(new Message("user", o.text(), null, null, null, code));
            }
        }
    }

    public List<Message> messages() { return List.copyOf(messages); }

    public Stats stats(Usage usage) {
        return new Stats(turns, toolCalls, toolErrors, errorCodes, usage.promptTokens(), usage.completionTokens());
    }
}
