package dev.openagent.junit;

import dev.openagent.agent.framework.AgentCrash;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.TranscriptSource;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Usage;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;

/**
 * An agent of one episode whose own failures are scored, as a framework agent's are: a throw from
 * its code ends the episode with the crash answer ({@link AgentCrash}) instead of aborting the run.
 * It keeps the session, for the agent's transcript when the session records one.
 */
final class ScoredAgent implements Agent {
    private final Agent agent;
    private AgentSession session;
    private String error;

    ScoredAgent(Agent agent) { this.agent = agent; }

    @Override
    public String name() { return agent.name(); }

    @Override
    public AgentSession begin(Start start, Env env) {
        try {
            session = agent.begin(start, env);
        } catch (InfrastructureException e) {
            throw e;
        } catch (RuntimeException e) {
            return last -> crashed(e);
        }
        return new AgentSession() {
            @Override
            public Action act(Step last) {
                try {
                    return session.act(last);
                } catch (InfrastructureException e) {
                    throw e;
                } catch (RuntimeException e) {
                    return crashed(e);
                }
            }

            @Override
            public Usage usage() { return session.usage(); }
        };
    }

    private Action crashed(RuntimeException e) {
        error = AgentCrash.describe(e);
        return AgentCrash.ending(e);
    }

    /** What the agent's framework sent and received (when its session records it), and what it threw. */
    AgentTranscript transcript() {
        AgentTranscript own = session instanceof TranscriptSource s ? s.transcript() : AgentTranscript.NONE;
        return error == null ? own : new AgentTranscript(own.exchanges(), error);
    }
}
