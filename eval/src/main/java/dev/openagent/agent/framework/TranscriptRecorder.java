package dev.openagent.agent.framework;

import dev.openagent.episode.Message;

import java.util.ArrayList;
import java.util.List;

/** Builds an {@link AgentTranscript} from the model calls of one episode. Not thread-safe. */
public final class TranscriptRecorder {
    private final List<AgentTranscript.Exchange> exchanges = new ArrayList<>();
    private List<Message> previous = List.of();
    private boolean replied;
    private String error;

    /**
     * One model call: every message of the request, the tool names it offered, and the reply. A request
     * that extends the previous one is recorded from where that one ended, less the framework's echo of
     * the previous reply (an assistant message right there, which it may re-render with other ids).
     */
    public void exchange(List<Message> request, List<String> tools, Message reply) {
        boolean continues = !previous.isEmpty() && request.size() >= previous.size()
                && request.subList(0, previous.size()).equals(previous);
        int from = 0;
        if (continues) {
            from = previous.size();
            if (replied && from < request.size() && request.get(from).role().equals("assistant")) from++;
        }
        exchanges.add(new AgentTranscript.Exchange(continues, tools, request.subList(from, request.size()), reply));
        previous = List.copyOf(request);
        replied = reply != null;
    }

    /** What the agent's own code threw (one line). */
    public void error(String description) { this.error = description; }

    public AgentTranscript build() { return new AgentTranscript(exchanges, error); }
}
