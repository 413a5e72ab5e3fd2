package dev.openagent.fake;

import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.util.List;
import java.util.Map;

/**
 * A zero-latency stand-in for a model that plays the oracle on one episode: it keeps a private
 * copy of the episode and steps it with its own previous move, which is what the sandbox ran if the
 * agent's framework executed every call the "model" made, in order. Its replies are assistant
 * messages as a chat model returns them (tool calls, a question through {@code ask_user}, the answer).
 */
public final class OracleChat {
    private final Env env;
    private final Guide guide;
    private Action previous;
    private int turn;

    public OracleChat(Environment environment, ShiftStack stack, TaskRequest request) {
        this.env = stack.apply(environment.create());
        env.reset(request);
        this.guide = env.guide();
    }

    /** The next assistant message. */
    public synchronized Message next() {
        Step last = previous == null ? null : env.step(previous);
        Action a = guide.next(last);
        previous = a;
        turn++;
        return switch (a) {
            case Action.CallTools c -> Message.assistantCalls(c.calls().stream().map(x -> Message.ToolCall.of(x.id(), x.name(), x.arguments())).toList());
            case Action.AskUser q -> Message.assistantCalls(List.of(Message.ToolCall.of("ask_" + turn, Protocol.ASK_USER,
                    Json.write(Map.of("question", q.question())))));
            case Action.Answer x -> Message.assistant(Protocol.finalText(x));
            case Action.Refuse x -> Message.assistant(Protocol.finalText(x));
            case Action.Command x -> Message.assistant(x.text());
        };
    }
}
