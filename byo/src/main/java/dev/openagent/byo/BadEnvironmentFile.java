package dev.openagent.byo;

/** A mistake in an environment or task file, as one line naming the file, the line and the key. */
public final class BadEnvironmentFile extends IllegalArgumentException {
    BadEnvironmentFile(String message) {
        super(message, null);
    }

    @Override
    public synchronized Throwable fillInStackTrace() { return this; }
}
