package dev.openagent.server;

/**
 * Where a server records finished episodes: the results store ({@link StoreEpisodeSink}) or JSON
 * lines ({@link JsonlEpisodeSink}).
 */
public interface EpisodeSink extends AutoCloseable {
    /** Records one finished episode. */
    void record(FinishedEpisode episode);

    /** A human-readable description of where episodes go. */
    String describe();

    @Override
    default void close() {}
}
