package dev.openagent.envs.kit;

import dev.openagent.sandbox.Seeds;

import java.util.SplittableRandom;

/**
 * The world of one episode on a cached layout ({@link Layouts}): the layout is immutable and shared by
 * every episode that draws it; the subclass adds the episode's mutable state (bookings, orders, ...).
 * The codes an episode issues (confirmations, references) come from its own stream, so an episode seed
 * gives the same codes whatever other episodes did.
 */
public abstract class EpisodeWorld<L> {
    /** The layout this episode runs on. */
    protected final L map;
    /** The episode's stream for the codes it issues ({@link Codes}). */
    protected final SplittableRandom codes;

    protected EpisodeWorld(L map, long episodeSeed) {
        this.map = map;
        this.codes = new SplittableRandom(Seeds.mix(episodeSeed, 0xC0DE));
    }

    public final L layout() { return map; }
}
