package dev.openagent.episode;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

/** The episode loop: reset, let the agent act until the environment says done, record it all. */
public final class Episodes {
    private Episodes() {}

    public static Trajectory run(Env env, Agent agent, TaskRequest request) {
        Start start = env.reset(request);
        Conversation conversation = new Conversation(start, env.info().iface());
        AgentSession session = agent.begin(start, env);
        Step last = null;
        Outcome outcome;
        while (true) {
            Action action;
            try {
                action = session.act(last);
            } catch (InfrastructureException e) {
                outcome = new Outcome(false, Outcome.End.INFRA_ERROR, e.getMessage());
                break;
            }
            conversation.add(action);
            last = env.step(action);
            conversation.add(last);
            if (last.done()) {
                outcome = last.outcome();
                break;
            }
        }
        return trajectory(env, request, agent.name(), start, conversation, outcome, session.usage());
    }

    /** The record of an episode driven from outside this loop (for example by a server's client). */
    public static Trajectory trajectory(Env env, TaskRequest request, String agent, Start start, Conversation conversation,
                                        Outcome outcome, Usage usage) {
        Task task = env.task();
        return new Trajectory(env.spec().env(), task.id(), task.split().id(), request.seed(), task.difficulty(),
                task.kind(), task.solvable(), env.spec().shifts(), agent, start.tools(),
                conversation.messages(), outcome, conversation.stats(usage), env.dbChanges());
    }
}
