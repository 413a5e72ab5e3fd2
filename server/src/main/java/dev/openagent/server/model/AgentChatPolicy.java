package dev.openagent.server.model;

import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvSpec;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.text.Commands;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Serves any {@link Agent} that acts on what it is shown (not on privileged environment state) as
 * a chat policy. Each request is stateless: the conversation is turned back into what the agent
 * saw in-process (a {@link Start} from the system prompt, the first user message and the tools;
 * then, per assistant turn, a {@link Step} of observations from the tool and user messages that
 * follow) and replayed into a fresh session, whose next action becomes the reply. For an agent
 * that is deterministic given what it saw, the reply is exactly what it would do in-process.
 *
 * <p>Observations are rebuilt from text: a tool result's payload is its text parsed as JSON (what
 * environments print), and an error is read from the {@code Error [CODE]: message} form tool
 * errors take. An agent that reads payloads where the environment's text is not JSON sees less
 * through the endpoint than in-process; agents should read text.
 */
public final class AgentChatPolicy implements ChatPolicy {
    private static final Pattern ERROR = Pattern.compile("^Error \\[([A-Z_]+)]: (.*)$", Pattern.DOTALL);

    private final String id;
    private final Agent agent;

    public AgentChatPolicy(String id, Agent agent) {
        this.id = id;
        this.agent = agent;
    }

    @Override
    public String id() { return id; }

    @Override
    public Message respond(List<Message> messages, List<ToolSpec> tools) {
        int i = 0;
        String system = "";
        if (i < messages.size() && messages.get(i).role().equals("system")) system = text(messages.get(i++));
        if (i >= messages.size() || !messages.get(i).role().equals("user")) {
            throw new IllegalArgumentException("the conversation must start with the user's request (after an optional system message)");
        }
        String query = text(messages.get(i++));
        Start start = new Start(system, query, tools);
        AgentSession session;
        try {
            session = agent.begin(start, NO_ENV);
        } catch (PrivilegedAccess e) {
            throw new IllegalStateException("agent '" + agent.name() + "' reads the environment's privileged state and cannot be served", e);
        }
        Step last = null;
        int turn = 0;
        while (i < messages.size()) {
            Message m = messages.get(i++);
            if (!m.role().equals("assistant")) {
                throw new IllegalArgumentException("messages[" + (i - 1) + "]: expected an assistant message, got " + m.role());
            }
            Action replayed = act(session, last);
            List<Observation> observations = new ArrayList<>();
            while (i < messages.size() && !messages.get(i).role().equals("assistant")) {
                Message o = messages.get(i++);
                observations.add(observation(o, m, replayed));
            }
            last = Step.of(observations);
            turn++;
        }
        return render(act(session, last), tools, turn);
    }

    private Action act(AgentSession session, Step last) {
        try {
            return session.act(last);
        } catch (PrivilegedAccess e) {
            throw new IllegalStateException("agent '" + agent.name() + "' reads the environment's privileged state and cannot be served", e);
        }
    }

    private static String text(Message m) { return m.content() == null ? "" : m.content(); }

    /** What the agent observed, rebuilt from one message that followed its turn. */
    private static Observation observation(Message o, Message assistant, Action replayed) {
        boolean asked = switch (replayed) {
            case Action.AskUser q -> true;
            case Action.Command c -> Commands.after(Commands.normalize(c.text()), Protocol.ASK_COMMAND) != null;   // "ask ..."
            default -> false;
        };
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

    private static com.fasterxml.jackson.databind.JsonNode payload(String text) {
        String t = text.strip();
        if (!(t.startsWith("{") || t.startsWith("["))) return null;
        try {
            return Json.MAPPER.readTree(t);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    /**
     * The action as an assistant message. A conversation without tools is a text-command episode,
     * where plain text is a command: there a final answer carries the {@value OpenAiAgent#FINAL_ANSWER}
     * marker and a question is the {@code ask} command, as the harness's chat agent reads them.
     */
    static Message render(Action action, List<ToolSpec> tools, int turn) {
        boolean commands = tools.isEmpty();
        return switch (action) {
            case Action.CallTools c -> Message.assistantCalls(c.calls().stream()
                    .map(t -> Message.ToolCall.of(t.id(), t.name(), t.arguments())).toList());
            case Action.AskUser q -> tools.stream().anyMatch(t -> t.name().equals(Protocol.ASK_USER))
                    ? Message.assistantCalls(List.of(Message.ToolCall.of("ask_" + turn, Protocol.ASK_USER,
                            Json.write(Map.of("question", q.question())))))
                    : Message.assistant(commands ? Protocol.ASK_COMMAND + " " + q.question() : q.question());
            case Action.Command cmd -> Message.assistant(cmd.text());
            case Action.Answer a -> Message.assistant(commands ? OpenAiAgent.FINAL_ANSWER + " " + a.text() : Protocol.finalText(a));
            case Action.Refuse r -> Message.assistant(Protocol.finalText(r));
        };
    }

    /** Thrown when a served agent reaches for the environment: it only gets the conversation. */
    private static final class PrivilegedAccess extends RuntimeException {
        PrivilegedAccess() { super("a served policy sees only the conversation", null, false, false); }
    }

    private static final Env NO_ENV = new Env() {
        @Override
        public EnvSpec spec() { throw new PrivilegedAccess(); }

        @Override
        public EnvironmentInfo info() { throw new PrivilegedAccess(); }

        @Override
        public Start reset(TaskRequest request) { throw new PrivilegedAccess(); }

        @Override
        public Step step(Action action) { throw new PrivilegedAccess(); }

        @Override
        public Task task() { throw new PrivilegedAccess(); }

        @Override
        public Guide guide() { throw new PrivilegedAccess(); }

        @Override
        public long episodeSeed() { throw new PrivilegedAccess(); }
    };
}
