package dev.openagent.policy;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The words whose identity the policy may use: those seen often enough in its training data.
 * Any other word reads as unknown (word id 0) and is recognised only by its shape, its character
 * trigrams and its context, which is what lets a policy trained on one split's names copy the
 * other split's names. Saved as {@code vocabulary.txt} beside the weights.
 */
public final class Vocabulary {
    /** Word id of every word outside the vocabulary. */
    static final int UNKNOWN = 0;

    /** Sorted (the saved order); {@link #lookup} answers {@link #knows} in constant time. */
    private final Set<String> words;
    private final Set<String> lookup;

    public Vocabulary(Collection<String> words) {
        TreeSet<String> w = new TreeSet<>();
        for (String s : words) w.add(s.toLowerCase(Locale.ROOT));
        this.words = w;
        this.lookup = new HashSet<>(w);
    }

    /** No vocabulary: every word keeps its identity (untrained policies, tests). */
    public static Vocabulary open() {
        return OPEN;
    }

    private static final Vocabulary OPEN = new Vocabulary(List.of());

    boolean isOpen() { return words.isEmpty(); }

    boolean knows(String lower) { return lookup.isEmpty() || lookup.contains(lower); }

    public List<String> words() { return List.copyOf(words); }

    public int size() { return words.size(); }
}
