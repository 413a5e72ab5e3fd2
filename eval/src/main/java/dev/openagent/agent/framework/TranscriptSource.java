package dev.openagent.agent.framework;

/** An agent session that records what its framework sent to its model and got back. */
public interface TranscriptSource {
    AgentTranscript transcript();
}
