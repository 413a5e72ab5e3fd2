package dev.openagent.policy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * How one token becomes embedding ids: a hashed word id (the lower-cased token), a hashed shape
 * id (its letter/digit pattern, so ids and codes are recognised by form, not value) and a bag of
 * hashed character trigrams and identifier parts (so {@code cafes} resembles {@code cafe} and
 * {@code place_id} resembles {@code place id}). Hashes are FNV-1a with the config's salt: stable
 * across JVMs and platforms.
 */
final class Pieces {
    private Pieces() {}

    /** The ids of one token; equal ids mean an equal embedding (a batch embeds each distinct piece once). */
    record Piece(int word, int shape, int[] bag) {
        /** The padding and empty piece: unknown word, shape bucket 0, no bag. */
        static final Piece EMPTY = new Piece(Vocabulary.UNKNOWN, 0, new int[0]);

        /** The same token read as an unknown word (word dropout): only its shape is left. */
        Piece dropped() {
            return new Piece(Vocabulary.UNKNOWN, shape, new int[0]);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Piece p && p.word == word && p.shape == shape && java.util.Arrays.equals(p.bag, bag);
        }

        @Override
        public int hashCode() {
            return (word * 31 + shape) * 31 + java.util.Arrays.hashCode(bag);
        }
    }

    static Piece of(String token, PolicyConfig c, Vocabulary vocabulary) {
        String lower = token.toLowerCase(Locale.ROOT);
        int word = vocabulary.knows(lower) ? 1 + bucket(lower, c.hashSalt(), c.wordBuckets() - 1) : Vocabulary.UNKNOWN;
        int shape = bucket(Tokenizer.shape(token), c.hashSalt() + 1, c.shapeBuckets());
        int[] bag = new int[c.bagSize()];
        int k = 0;
        List<String> parts = Tokenizer.subwords(token);
        if (parts.size() > 1) {
            for (String p : parts) {
                if (k == bag.length) break;
                bag[k++] = bucket(p, c.hashSalt() + 2, c.bagBuckets());
            }
        }
        String padded = "<" + lower + ">";
        for (int i = 0; i + 3 <= padded.length() && k < bag.length; i++) {
            bag[k++] = bucket(padded.substring(i, i + 3), c.hashSalt() + 3, c.bagBuckets());
        }
        return new Piece(word, shape, k == bag.length ? bag : java.util.Arrays.copyOf(bag, k));
    }

    static int bucket(String s, int salt, int buckets) {
        int h = 0x811C9DC5 ^ salt * 0x01000193;
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x01000193;
        }
        return Math.floorMod(h, buckets);
    }
}
