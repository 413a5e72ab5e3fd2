package dev.openagent.results;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An episode's identity in the results store: the same key is the same episode, so a rerun skips
 * it. {@code configHash} covers everything else that changes what happens in an episode (the
 * agent's configuration, the split, the difficulty; see {@link Hashing#configHash}).
 */
public record EpisodeKey(String configHash, String agent, String env, String shift, long taskSeed, int trial) {
    public EpisodeKey {
        if (trial < 0) throw new IllegalArgumentException("trial must be >= 0");
    }

    /** A stable id: the first 32 hex digits of the SHA-256 of the fields. */
    public String id() {
        return Hashing.sha256(configHash + '\u0000' + agent + '\u0000' + env + '\u0000' + shift + '\u0000' + taskSeed + '\u0000' + trial)
                .substring(0, 32);
    }

    /** SHA-256 in hex, used for ids. */
    public static final class Hashing {
        private Hashing() {}

        public static String sha256(String text) {
            try {
                return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
