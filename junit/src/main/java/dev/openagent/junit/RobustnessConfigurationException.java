package dev.openagent.junit;

/** A robustness test that cannot run as written; its message is the one line that says why. */
public final class RobustnessConfigurationException extends RuntimeException {
    RobustnessConfigurationException(String message) {
        super(message, null, false, false);
    }
}
