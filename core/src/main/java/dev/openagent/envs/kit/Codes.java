package dev.openagent.envs.kit;

import java.util.SplittableRandom;

/** Confirmation and verification codes: unambiguous letters and digits, drawn from the episode's stream. */
public final class Codes {
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

    private Codes() {}

    /** A code such as {@code RX-7KQ2M9}: the prefix, a dash, then {@code length} characters. */
    public static String next(SplittableRandom rnd, String prefix, int length) {
        return prefix + "-" + plain(rnd, "", length);
    }

    /** A code such as {@code V7KQ2M9}: the prefix, then {@code length} characters. */
    public static String plain(SplittableRandom rnd, String prefix, int length) {
        StringBuilder out = new StringBuilder(prefix.length() + length).append(prefix);
        for (int i = 0; i < length; i++) out.append(ALPHABET.charAt(rnd.nextInt(ALPHABET.length())));
        return out.toString();
    }
}
