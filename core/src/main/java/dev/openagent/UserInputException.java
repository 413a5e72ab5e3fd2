package dev.openagent;

/**
 * What the person running openagent asked for cannot be done as asked: a flag's value, a config, experiment or
 * environment file, a shift spec, an environment id, a store URL, a path that does not exist or cannot be written.
 * Its message is written for that person and names the input at fault; the CLI prints it as one line
 * ({@code openagent: MESSAGE}) and exits with code 2, without a stack trace. Any other exception that reaches the
 * CLI is a bug (or a failure the code did not expect) and keeps its trace.
 *
 * <p>It is an {@link IllegalArgumentException}, so code that catches those to add context (the file and line of a
 * setting) or to answer a request with 400 keeps working; throw this type, not a bare
 * {@code IllegalArgumentException}, wherever input from the user is refused, and keep the bare type for
 * preconditions a caller in the code breaks.
 */
public class UserInputException extends IllegalArgumentException {
    public UserInputException(String message) {
        super(message);
    }

    /** With the failure behind it (an I/O error on a path the user gave, a parse error); the message stays the user's line. */
    public UserInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
