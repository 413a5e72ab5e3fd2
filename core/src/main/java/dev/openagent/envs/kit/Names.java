package dev.openagent.envs.kit;

import dev.openagent.sandbox.Split;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Name pools cut in two by index parity: train takes the even entries, test the odd ones, so
 * train and test worlds share no names drawn from a pool.
 */
public final class Names {
    private Names() {}

    /** The entries of the pool that belong to this split. */
    public static <T> List<T> half(List<T> pool, Split split) {
        int parity = split == Split.TRAIN ? 0 : 1;
        List<T> out = new ArrayList<>(pool.size() / 2 + 1);
        for (int i = parity; i < pool.size(); i += 2) out.add(pool.get(i));
        return List.copyOf(out);
    }

    /** Draws n distinct entries. */
    public static <T> List<T> distinct(List<T> pool, int n, SplittableRandom rnd) {
        if (n > pool.size()) throw new IllegalArgumentException("pool of " + pool.size() + " has no " + n + " distinct names");
        List<T> left = new ArrayList<>(pool);
        List<T> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(left.remove(rnd.nextInt(left.size())));
        return out;
    }

    public static <T> T any(List<T> pool, SplittableRandom rnd) {
        return pool.get(rnd.nextInt(pool.size()));
    }
}
