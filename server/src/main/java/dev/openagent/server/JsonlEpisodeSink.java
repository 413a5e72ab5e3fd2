package dev.openagent.server;

import dev.openagent.UserInputException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Appends each finished episode as one line to {@code DIR/trajectories.jsonl}, the file
 * {@code openagent run --out DIR} writes and {@code openagent show DIR} reads. Flushed per episode.
 */
public final class JsonlEpisodeSink implements EpisodeSink {
    private final Path file;
    private final Writer out;

    public JsonlEpisodeSink(Path dir) {
        this.file = dir.resolve("trajectories.jsonl");
        try {
            Files.createDirectories(dir);
            this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UserInputException("cannot write episodes to " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void record(FinishedEpisode episode) {
        try {
            out.write(episode.trajectory().toJson());
            out.write('\n');
            out.flush();
        } catch (IOException e) {
            throw new UserInputException("cannot append to " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String describe() { return file.toString(); }

    public Path file() { return file; }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
