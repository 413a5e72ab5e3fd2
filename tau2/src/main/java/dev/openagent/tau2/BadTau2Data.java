package dev.openagent.tau2;

/**
 * A tau2-bench checkout this environment cannot use (missing or malformed directory, a database that does not match
 * tau2's schema, a task naming a tool tau2's retail domain does not have): its message is one line saying what and
 * where. An {@link IllegalArgumentException}, so the CLI prints it as a user error (exit code 2).
 */
public final class BadTau2Data extends IllegalArgumentException {
    public BadTau2Data(String message) {
        super(message);
    }
}
