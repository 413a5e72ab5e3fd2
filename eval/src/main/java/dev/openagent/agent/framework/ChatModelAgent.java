package dev.openagent.agent.framework;

import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Conversation;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Message;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.ToolSpec;

import java.util.List;

/**
 * A bare chat model of an agent framework as an {@link Agent}: each turn sends the episode so far
 * (rendered by {@link Conversation}, as the trajectory records it) with the episode's tools through
 * the framework's model, and the reply becomes the action ({@link ModelReplies}). The framework
 * adapters supply the {@link Model}; what the framework actually sent is kept as the session's
 * {@link AgentTranscript}. A model call that throws is an infrastructure error.
 */
public final class ChatModelAgent implements Agent {
    /** One call of a framework's chat model. Implementations must be safe to call from several threads. */
    @FunctionalInterface
    public interface Model {
        /**
         * Sends the conversation and the tools.
         *
         * @throws RuntimeException when the model endpoint fails
         */
        Exchange call(List<Message> messages, List<ToolSpec> tools);
    }

    /** A model call: the request's messages as the framework sent them, the reply, and the tokens it reported. */
    public record Exchange(List<Message> sent, Message reply, Usage usage) {}

    private final String name;
    private final Model model;

    public ChatModelAgent(String name, Model model) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("agent name is blank");
        this.name = name;
        this.model = model;
    }

    @Override
    public String name() { return name; }

    @Override
    public AgentSession begin(Start start, Env env) {
        return new Session(start, env.info().iface());
    }

    private final class Session implements AgentSession, TranscriptSource {
        private final Interface iface;
        private final List<ToolSpec> tools;
        private final List<String> toolNames;
        private final Conversation conversation;
        private final TranscriptRecorder transcript = new TranscriptRecorder();
        private Usage usage = Usage.NONE;
        private int turn;

        Session(Start start, Interface iface) {
            this.iface = iface;
            this.tools = start.tools();
            this.toolNames = tools.stream().map(ToolSpec::name).toList();
            this.conversation = new Conversation(start, iface);
        }

        @Override
        public Action act(Step last) {
            if (last != null) conversation.add(last);
            Exchange x;
            try {
                x = model.call(conversation.messages(), tools);
            } catch (InfrastructureException e) {
                throw e;
            } catch (RuntimeException e) {
                throw new InfrastructureException("model call failed: " + AgentCrash.describe(e), e);
            }
            transcript.exchange(x.sent(), toolNames, x.reply());
            usage = usage.plus(x.usage());
            Action action = ModelReplies.action(x.reply(), iface, ++turn);
            conversation.add(action);
            return action;
        }

        @Override
        public Usage usage() { return usage; }

        @Override
        public AgentTranscript transcript() { return transcript.build(); }
    }
}
