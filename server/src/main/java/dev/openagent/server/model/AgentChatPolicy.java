package dev.openagent.server.model;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Message;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.EnvSpec;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * Serves any {@link Agent} that acts on what it is shown (not on privileged environment state) as
 * a chat policy. Each request is stateless: the conversation is read back into what the agent saw
 * in-process ({@link ChatTranscript}) and replayed into a fresh session, one step per earlier
 * assistant turn; the session's next action becomes the reply. For an agent that is deterministic
 * given what it saw, the reply is exactly what it would do in-process. (The built-in policy needs
 * no replay: the CLI's {@code PolicyChatPolicy} reads its view straight from the transcript.)
 */
public record AgentChatPolicy(String id, Agent agent) implements ChatPolicy {
    @Override
    public Message respond(List<Message> messages, List<ToolSpec> tools) {
        ChatTranscript transcript = ChatTranscript.of(messages, tools);
        try {
            AgentSession session = agent.begin(transcript.start(), NO_ENV);
            Step last = null;
            for (ChatTranscript.Turn turn : transcript.turns()) {
                session.act(last);
                last = turn.step();
            }
            return transcript.reply(session.act(last));
        } catch (PrivilegedAccess e) {
            throw new IllegalStateException("agent '" + agent.name() + "' reads the environment's privileged state and cannot be served", e);
        }
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

        @Override
        public EnvFacts facts() { throw new PrivilegedAccess(); }
    };
}
