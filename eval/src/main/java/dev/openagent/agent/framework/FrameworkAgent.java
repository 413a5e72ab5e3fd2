package dev.openagent.agent.framework;

/**
 * An agent built on an agent framework (a LangChain4j AI service, a Spring AI {@code ChatClient}):
 * it runs its own loop with its own prompts and memory, calls the sandbox's (shifted) tools through
 * the {@link FrameworkEpisode} it is handed, and returns its final message. {@link FrameworkEpisodes#run}
 * runs it on a task and records the episode like any other. The framework adapters
 * ({@code openagent-langchain4j}, {@code openagent-spring-ai}) build these.
 *
 * <p>Implementations must be safe to call from several threads at once, one episode per call.
 */
public interface FrameworkAgent {
    /** A short id, recorded as the trajectory's agent. */
    String name();

    /**
     * Runs one episode.
     *
     * @return the final message: the answer, or a refusal starting with
     *         {@link dev.openagent.sandbox.Protocol#REFUSAL_MARKER}
     * @throws Exception whatever the agent's own code throws: the episode is then scored as an agent
     *                   error, never lost (a failing model endpoint is an infrastructure error instead)
     */
    String run(FrameworkEpisode episode) throws Exception;
}
