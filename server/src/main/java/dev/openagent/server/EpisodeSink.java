package dev.openagent.server;

import dev.openagent.episode.Trajectory;

/**
 * Where a server records finished episodes. Swappable: JSON lines today
 * ({@link JsonlEpisodeSink}), the results store when it is available.
 */
public interface EpisodeSink extends AutoCloseable {
    /** Records one finished episode; must be durable when it returns. */
    void record(Trajectory trajectory);

    /** A human-readable description of where episodes go. */
    String describe();

    @Override
    default void close() {}
}
