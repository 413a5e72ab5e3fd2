package dev.openagent.agent.framework;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.report.Transcript;

import java.util.List;

/**
 * What an agent's framework sent to its model and got back in one episode, as chat messages: its
 * own system prompt, memory and tool list, which the sandbox's trajectory (the episode as the
 * environment saw it) does not show. Each exchange holds only the messages the request added to
 * the conversation so far ({@code continues}); a request that does not extend it (a trimmed memory,
 * a second conversation) is held whole.
 *
 * @param error what the agent's own code threw, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AgentTranscript(List<Exchange> exchanges, String error) {
    public static final AgentTranscript NONE = new AgentTranscript(List.of(), null);

    /**
     * One model call.
     *
     * @param tools the tool names the request offered
     * @param sent  the messages the request added (all of them when {@code continues} is false)
     * @param reply the model's message
     */
    public record Exchange(boolean continues, List<String> tools, List<Message> sent, Message reply) {
        public Exchange {
            tools = List.copyOf(tools);
            sent = List.copyOf(sent);
        }
    }

    public AgentTranscript {
        exchanges = List.copyOf(exchanges);
    }

    public boolean isEmpty() { return exchanges.isEmpty() && error == null; }

    public ObjectNode toJson() { return Json.MAPPER.valueToTree(this); }

    /** As readable lines, the way {@link Transcript} prints a trajectory. */
    public String render() {
        StringBuilder sb = new StringBuilder();
        List<String> tools = null;
        for (Exchange e : exchanges) {
            if (!e.continues()) sb.append("--- the framework starts a conversation ---\n");
            if (!e.tools().equals(tools)) {
                sb.append("(tools offered to the model: ").append(e.tools().isEmpty() ? "none" : String.join(", ", e.tools())).append(")\n");
                tools = e.tools();
            }
            for (Message m : e.sent()) sb.append(Transcript.line(m, true));
            if (e.reply() != null) sb.append(Transcript.line(e.reply(), true));
        }
        if (error != null) sb.append("[agent threw] ").append(error).append('\n');
        return sb.toString();
    }
}
