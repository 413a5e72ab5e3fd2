package dev.openagent.envs.kit;

import java.util.SplittableRandom;

/** Confirmation and verification codes: unambiguous letters and digits, drawn from the episode's stream. */
public final class Codes {
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

    private Codes() {}

    /** A code such as {@code RX-7KQ2M9}: the prefix, a dash, then {@code length} characters. */
    public static String next(SplittableRandom rnd, String prefix, int length) {
        char[] out = new char[prefix.length() + 1 + length];
        prefix.getChars(0, prefix.length(), out, 0);
        out[prefix.length()] = '-';
        for (int i = 0; i < length; i++) out[prefix.length() + 1 + i] = ALPHABET.charAt(rnd.nextInt(ALPHABET.length()));
        return new String(out);
    }
}
