package dev.openagent.shift;

import java.util.Locale;

/** The paper's four-tier diagnostic hierarchy. */
public enum Tier {
    PERCEPTION, INTERACTION, REASONING, INTERNALIZATION;

    public String id() { return name().toLowerCase(Locale.ROOT); }

    public static Tier parse(String text) {
        for (Tier t : values()) if (t.id().equals(text.toLowerCase(Locale.ROOT))) return t;
        throw new IllegalArgumentException("unknown tier '" + text + "' (perception, interaction, reasoning, internalization)");
    }
}
