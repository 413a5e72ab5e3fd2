package dev.openagent.shift;

import dev.openagent.UserInputException;

import java.util.Locale;

/**
 * The paper's four-tier diagnostic hierarchy, and a fifth tier beyond the paper: {@code security}, shifts
 * an adversary makes (injected instructions), scored by utility and attack success.
 */
public enum Tier {
    PERCEPTION, INTERACTION, REASONING, INTERNALIZATION, SECURITY;

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public static Tier parse(String text) {
        for (Tier t : values()) if (t.id().equals(text.toLowerCase(Locale.ROOT))) return t;
        throw new UserInputException("unknown tier '" + text + "' (perception, interaction, reasoning, internalization, security)");
    }
}
