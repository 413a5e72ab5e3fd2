package dev.openagent.sandbox;

import dev.openagent.UserInputException;

import java.util.Locale;

/** Train and test draw their worlds from disjoint entity seeds and disjoint name pools. */
public enum Split {
    TRAIN, TEST;

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public static Split parse(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "train" -> TRAIN;
            case "test" -> TEST;
            default -> throw new UserInputException("unknown split '" + text + "' (train|test)");
        };
    }
}
