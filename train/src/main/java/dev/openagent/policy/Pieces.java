package dev.openagent.policy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How one token becomes embedding ids: a hashed word id (the lower-cased token), a hashed shape
 * id (its letter/digit pattern, so ids and codes are recognised by form, not value) and a bag of
 * hashed character trigrams and identifier parts (so {@code cafes} resembles {@code cafe} and
 * {@code place_id} resembles {@code place id}). Hashes are FNV-1a with the config's salt: stable
 * across JVMs and platforms.
 */
final class Pieces {
    private Pieces() {}

    /**
     * The ids of one token; equal ids mean an equal embedding (a batch embeds each distinct piece once).
     * A class rather than a record only to keep its hash: batches look every token's piece up in a table.
     */
    static final class Piece {
        /** The padding and empty piece: unknown word, shape bucket 0, no bag. */
        static final Piece EMPTY = new Piece(Vocabulary.UNKNOWN, 0, new int[0]);

        private final int word;
        private final int shape;
        private final int[] bag;
        private final int hash;

        Piece(int word, int shape, int[] bag) {
            this.word = word;
            this.shape = shape;
            this.bag = bag;
            this.hash = (word * 31 + shape) * 31 + Arrays.hashCode(bag);
        }

        int word() { return word; }

        int shape() { return shape; }

        /** Trigram and identifier-part ids; callers read it, never write it (pieces are shared through {@link #of}'s cache). */
        int[] bag() { return bag; }

        /** The same token read as an unknown word (word dropout): only its shape is left. */
        Piece dropped() {
            return new Piece(Vocabulary.UNKNOWN, shape, new int[0]);
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof Piece p && p.hash == hash && p.word == word && p.shape == shape && Arrays.equals(p.bag, bag);
        }

        @Override
        public int hashCode() { return hash; }
    }

    /** What a piece depends on besides its token: the vocabulary (by identity) and the config's hashing. */
    private record Key(String token, Vocabulary vocabulary, int salt, int wordBuckets, int shapeBuckets, int bagSize, int bagBuckets) {}

    /**
     * Pieces already computed: contexts are re-encoded every step and the same tokens recur (JSON keys, tool
     * words, the request), and computing a piece (lower case, shape, parts, trigrams, hashes) costs far more
     * than a look-up. Cleared when large; a piece is a pure function of its key, so clearing changes nothing.
     */
    private static final Map<Key, Piece> CACHE = new ConcurrentHashMap<>();
    private static final int CACHE_LIMIT = 200_000;

    static Piece of(String token, PolicyConfig c, Vocabulary vocabulary) {
        Key key = new Key(token, vocabulary, c.hashSalt(), c.wordBuckets(), c.shapeBuckets(), c.bagSize(), c.bagBuckets());
        Piece known = CACHE.get(key);
        if (known != null) return known;
        if (CACHE.size() > CACHE_LIMIT) CACHE.clear();
        Piece piece = compute(token, c, vocabulary);
        CACHE.put(key, piece);
        return piece;
    }

    private static Piece compute(String token, PolicyConfig c, Vocabulary vocabulary) {
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
        return new Piece(word, shape, k == bag.length ? bag : Arrays.copyOf(bag, k));
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
