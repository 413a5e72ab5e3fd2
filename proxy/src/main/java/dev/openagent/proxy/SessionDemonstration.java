package dev.openagent.proxy;

import dev.openagent.episode.Message;
import dev.openagent.sandbox.Outcome;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.ToolSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A recorded proxy session that a task scored a success, read as a demonstration for training: the task's request,
 * the agent's calls and the results it was shown (the shifted names and texts, as it saw them), and its submitted
 * answer as the final assistant message. What only the recording holds is left out: what the upstream received
 * ({@value ProxySession#UPSTREAM_ROLE} messages), the proxy's notes (watch events, as system messages) and the
 * {@value ProxySession#SUBMIT_ANSWER} tool, which exists only to carry the answer back.
 */
public final class SessionDemonstration {
    private SessionDemonstration() {}

    /** Why a recorded episode is not a demonstration, or empty when it is one. */
    public static Optional<String> refusal(Trajectory recorded) {
        if (recorded == null) return Optional.of("it has no trajectory (it could not start)");
        if (!recorded.env().equals(ProxyDomain.ID)) return Optional.of("it is not a proxy session (env " + recorded.env() + ")");
        if (!recorded.success()) {
            return Optional.of(recorded.outcome().end() == Outcome.End.UNSCORED
                    ? "it was not scored (the proxy ran without --env FILE --task ID)" : "it did not succeed");
        }
        List<Message> m = conversation(recorded);
        if (m.isEmpty() || !m.getFirst().role().equals("user")) return Optional.of("its recording does not start with the task's request");
        if (!isAnswer(m.getLast())) return Optional.of("it has no submitted answer");
        return Optional.empty();
    }

    /** The agent's side of the recording: the request, its calls, the results it was shown, its answer. */
    private static List<Message> conversation(Trajectory recorded) {
        List<Message> out = new ArrayList<>();
        for (Message m : recorded.messages()) {
            switch (m.role()) {
                case "user", "assistant", "tool" -> out.add(m);
                default -> { }   // the upstream's side of a call, the proxy's notes
            }
        }
        return out;
    }

    /**
     * The session as a demonstration, or empty when it is none ({@link #refusal}): same task, seed, shifts and agent,
     * the tools the agent was shown without {@value ProxySession#SUBMIT_ANSWER}, the conversation the agent had.
     */
    public static Optional<Trajectory> of(Trajectory recorded) {
        if (refusal(recorded).isPresent()) return Optional.empty();
        List<ToolSpec> tools = recorded.tools().stream().filter(t -> !t.name().equals(ProxySession.SUBMIT_ANSWER)).toList();
        return Optional.of(new Trajectory(recorded.env(), recorded.taskId(), recorded.split(), recorded.seed(), recorded.difficulty(),
                recorded.kind(), recorded.solvable(), recorded.shifts(), recorded.agent(), tools, conversation(recorded), recorded.outcome(),
                recorded.stats()));
    }

    private static boolean isAnswer(Message m) {
        return m.role().equals("assistant") && m.toolCalls() == null && m.content() != null;
    }
}
