package dev.openagent.tau2;

import dev.openagent.UserInputException;

/**
 * A tau2-bench checkout this environment cannot use (missing or malformed directory, a database that does not match
 * tau2's schema, a task naming a tool tau2's retail domain does not have): its message is one line saying what and
 * where. A {@link UserInputException}, so the CLI prints it as one line (exit code 2).
 */
public final class BadTau2Data extends UserInputException {
    public BadTau2Data(String message) {
        super(message);
    }
}
