package dev.openagent.envs.kit;

import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The immutable part of worlds, cached per (split, world index): an episode seed picks one of
 * {@code perSplit} layouts of its split, generated once and shared by every episode (each episode
 * keeps its own mutable state on top).
 *
 * @param <L> the immutable layout
 */
public final class Layouts<L> {
    private final Map<Long, L> cache = new ConcurrentHashMap<>();
    private final int perSplit;
    private final long salt;
    private final LayoutSeed layoutSeed;
    private final BiFunction<Split, Long, L> generator;

    /** The seed of a split's layout by index. */
    @FunctionalInterface
    public interface LayoutSeed {
        long of(Split split, int index);
    }

    /**
     * @param perSplit  layouts per split: enough variety that layouts are not memorised, few enough to cache
     * @param salt      distinguishes environments, so two environments never share layout seeds
     * @param generator (split, layout seed) to a layout; must be deterministic
     */
    public Layouts(int perSplit, long salt, BiFunction<Split, Long, L> generator) {
        this(perSplit, salt, (split, index) -> Seeds.mix(Seeds.mix(index, salt), split.ordinal() + 1), generator);
    }

    /** As above, with the layout seeds an environment settled on before the kit existed (so its worlds stay the same). */
    public Layouts(int perSplit, long salt, LayoutSeed layoutSeed, BiFunction<Split, Long, L> generator) {
        this.perSplit = perSplit;
        this.salt = salt;
        this.layoutSeed = layoutSeed;
        this.generator = generator;
    }

    /** The layout an episode seed picks. */
    public L of(Split split, long episodeSeed) {
        int index = Math.floorMod(Seeds.mix(episodeSeed, salt), perSplit);
        return get(split, index);
    }

    /** The layout of a split by index (0 .. perSplit-1). */
    public L get(Split split, int index) {
        if (index < 0 || index >= perSplit) throw new IllegalArgumentException("layout index " + index + " outside 0.." + (perSplit - 1));
        long seed = layoutSeed.of(split, index);
        return cache.computeIfAbsent(index * 2L + split.ordinal(), k -> generator.apply(split, seed));
    }

    public int perSplit() { return perSplit; }
}
