package dev.openagent.envs.kit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * Seeded choices for task generators. Generators walk candidates in a random order and take the
 * first that fits, so a choice that exists is always found (no give-up after N random attempts)
 * and the same seed always gives the same task.
 */
public final class Pick {
    private Pick() {}

    /** The elements in a random order (Fisher-Yates). */
    public static <T> List<T> shuffled(Collection<T> all, SplittableRandom rnd) {
        List<T> out = new ArrayList<>(all);
        for (int i = out.size() - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            T x = out.get(i);
            out.set(i, out.get(j));
            out.set(j, x);
        }
        return out;
    }

    /**
     * The elements in a random order, those with the preferred property first (with probability
     * {@code bias}; otherwise plain random order), so targets with near misses are favoured.
     */
    public static <T> List<T> preferring(Collection<T> all, SplittableRandom rnd, Predicate<? super T> preferred, double bias) {
        List<T> order = shuffled(all, rnd);
        if (rnd.nextDouble() >= bias) return order;
        List<T> out = new ArrayList<>(order.size());
        for (T x : order) if (preferred.test(x)) out.add(x);
        for (T x : order) if (!preferred.test(x)) out.add(x);
        return out;
    }

    /** A random element passing the filter, or null when none does. */
    public static <T> T any(Collection<T> all, SplittableRandom rnd, Predicate<? super T> filter) {
        List<T> pool = new ArrayList<>();
        for (T x : all) if (filter.test(x)) pool.add(x);
        return pool.isEmpty() ? null : pool.get(rnd.nextInt(pool.size()));
    }
}
