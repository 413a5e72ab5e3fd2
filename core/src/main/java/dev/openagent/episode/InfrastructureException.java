package dev.openagent.episode;

/**
 * The agent could not act for reasons outside its control (model endpoint down, retries exhausted,
 * budget spent). The episode is recorded as an infrastructure error, never as an agent failure.
 */
public class InfrastructureException extends RuntimeException {
    public InfrastructureException(String message) { super(message); }

    public InfrastructureException(String message, Throwable cause) { super(message, cause); }
}
