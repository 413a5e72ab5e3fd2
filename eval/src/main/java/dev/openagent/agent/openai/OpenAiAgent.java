package dev.openagent.agent.openai;

import dev.openagent.chat.ChatCodec;
import dev.openagent.chat.ChatCompletion;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Conversation;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An agent behind any OpenAI-compatible {@code /v1/chat/completions} endpoint (vLLM, llama.cpp,
 * Ollama, LM Studio, hosted APIs). Each turn renders the episode so far as chat messages with
 * {@link Conversation} (as its trajectory records them), asks the model, and turns the reply into
 * an action:
 * <ul>
 *   <li>tool calls become {@link Action.CallTools}; a lone call of {@code ask_user} becomes {@link Action.AskUser};</li>
 *   <li>text without calls is the final message, an answer or (with the refusal marker) a refusal;</li>
 *   <li>in text-command environments the text is the command, unless it starts with
 *       {@value #FINAL_ANSWER} (the answer) or the refusal marker ({@link Protocol#command}, as the system
 *       prompt every agent gets says).</li>
 * </ul>
 * Whatever the model writes goes to the environment, which answers malformed calls with error
 * observations; only endpoint failures end an episode as an infrastructure error.
 */
public final class OpenAiAgent implements Agent {
    /** How a final answer is marked in text-command environments, where plain text is a command. */
    public static final String FINAL_ANSWER = Protocol.FINAL_ANSWER;
    static final String TEXT_COMMAND_NOTE = "\n\nReply with exactly one command per turn and nothing else; to finish, reply with '"
            + FINAL_ANSWER + "' or '" + Protocol.REFUSAL_MARKER + "' as described above.";

    private final ChatEndpoint endpoint;
    private final int trial;

    public OpenAiAgent(ChatEndpoint endpoint) {
        this(endpoint, 0);
    }

    private OpenAiAgent(ChatEndpoint endpoint, int trial) {
        this.endpoint = endpoint;
        this.trial = trial;
    }

    /** The same agent drawing sample {@code t}: a different sampling seed and cache slot per trial. */
    public OpenAiAgent forTrial(int t) {
        return t == trial ? this : new OpenAiAgent(endpoint, t);
    }

    public OpenAiConfig config() { return endpoint.config(); }

    @Override
    public String name() { return endpoint.config().label(); }

    @Override
    public AgentSession begin(Start start, Env env) {
        return new Session(start, env.info().iface());
    }

    /** The system prompt the model is sent: the template with the environment's prompt and the protocol notes filled in. */
    static String systemPrompt(OpenAiConfig config, Start start, Interface iface) {
        String notes = iface == Interface.TEXT_COMMAND ? TEXT_COMMAND_NOTE
                : config.protocol() == ToolProtocol.TEXT ? TextToolCalls.toolBlock(start.tools()) : "";
        return config.systemPrompt().replace("{{system}}", start.systemPrompt()).replace("{{tools}}", notes);
    }

    private final class Session implements AgentSession {
        private final Interface iface;
        private final Conversation conversation;
        private final ChatRequests requests;
        private Usage usage = Usage.NONE;
        private int turn;

        Session(Start start, Interface iface) {
            this.iface = iface;
            this.conversation = new Conversation(start.withSystemPrompt(systemPrompt(endpoint.config(), start, iface)), iface);
            this.requests = new ChatRequests(endpoint.config(), start.tools(), trial);
        }

        @Override
        public Action act(Step last) {
            if (last != null) conversation.add(last);
            String body = requests.body(conversation.messages());
            ChatCompletion c = endpoint.complete(body, trial).completion();
            usage = usage.plus(new Usage(c.promptTokens(), c.completionTokens(), 1));
            Action action = decode(c);
            conversation.add(action);
            turn++;
            return action;
        }

        @Override
        public Usage usage() { return usage; }

        private Action decode(ChatCompletion c) {
            if (iface == Interface.TEXT_COMMAND) return command(c.content());
            List<ChatCompletion.Call> raw = endpoint.config().protocol() == ToolProtocol.NATIVE
                    ? c.toolCalls() : TextToolCalls.parse(c.content());
            if (raw.isEmpty()) return Protocol.finalText(c.content());
            List<Action.ToolCall> calls = new ArrayList<>(raw.size());
            Set<String> ids = new HashSet<>();
            for (int i = 0; i < raw.size(); i++) {
                ChatCompletion.Call r = raw.get(i);
                String id = r.id() == null || r.id().isBlank() || !ids.add(r.id()) ? "call_" + turn + "_" + i : r.id();
                ids.add(id);
                calls.add(new Action.ToolCall(id, r.name(), r.arguments()));
            }
            return ChatCodec.toolCallsAction(calls);
        }
    }

    static Action command(String content) {
        String text = content == null ? "" : content.strip();
        if (text.startsWith("```") && text.endsWith("```") && text.length() >= 6) {
            text = text.substring(3, text.length() - 3).replaceFirst("^[a-zA-Z]*\\n", "").strip();
        }
        return Protocol.command(text);
    }
}
