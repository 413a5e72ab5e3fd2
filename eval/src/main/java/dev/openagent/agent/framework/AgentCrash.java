package dev.openagent.agent.framework;

import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;

import java.util.List;

/**
 * How an agent whose own code threw is scored: the episode ends with a final answer carrying
 * {@link #ANSWER_PREFIX} and the exception's type (never its message, which could by chance hold
 * what the checker looks for), so the sandbox judges it a failure and the failure taxonomy names it
 * {@code agent_error}. The exception itself is kept in the agent's transcript.
 */
public final class AgentCrash {
    public static final String ANSWER_PREFIX = "[agent error] ";

    private AgentCrash() {}

    /** The ending that stands for a crash. */
    public static Action.Answer ending(Throwable t) {
        return new Action.Answer(ANSWER_PREFIX + "the agent threw " + t.getClass().getSimpleName());
    }

    /** Whether an episode ended because the agent threw. */
    public static boolean crashed(Trajectory t) {
        if (t == null || t.outcome().end() != Outcome.End.ANSWERED) return false;
        List<Message> ms = t.messages();
        for (int i = ms.size() - 1; i >= 0; i--) {
            Message m = ms.get(i);
            if (m.role().equals("assistant")) {
                if (m.toolCalls() != null || m.content() == null) return false;
                String text = m.content();
                // a text-command episode writes the answer after its marker
                if (text.startsWith(Protocol.FINAL_ANSWER)) text = text.substring(Protocol.FINAL_ANSWER.length()).strip();
                return text.startsWith(ANSWER_PREFIX);
            }
        }
        return false;
    }

    /** One line: the exception's type and message, and its root cause when that is another exception. */
    public static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String s = line(t);
        if (root != t) s += " (caused by " + line(root) + ")";
        return s;
    }

    private static String line(Throwable t) {
        String m = t.getMessage();
        return t.getClass().getName() + (m == null || m.isBlank() ? "" : ": " + m.strip().replaceAll("\\s*\\R\\s*", " "));
    }
}
