package dev.openagent.byo;

import dev.openagent.UserInputException;

/** A mistake in an environment or task file, as one line naming the file, the line and the key. */
public final class BadEnvironmentFile extends UserInputException {
    BadEnvironmentFile(String message) {
        super(message, null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() { return this; }
}
