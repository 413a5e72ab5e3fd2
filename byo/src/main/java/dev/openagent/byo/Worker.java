package dev.openagent.byo;

import dev.openagent.episode.InfrastructureException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The world of one episode of a file-declared environment: a worker's own workdir (emptied and refilled from
 * the fixtures before every episode) and its own MCP server session (none when every tool is inline).
 * One worker runs one episode at a time; {@link FileEnvironment} pools them.
 */
final class Worker implements AutoCloseable {
    final int index;
    final Path workdir;
    final Path log;
    private final Function<Worker, McpConnection> connect;
    private McpConnection server;
    /** Set when the server failed: the worker is closed instead of going back to the pool. */
    volatile boolean broken;

    Worker(int index, Path base, Function<Worker, McpConnection> connect) {
        this.index = index;
        this.workdir = base.resolve("worker-" + index).resolve("work");
        this.log = base.resolve("worker-" + index).resolve("server.log");
        this.connect = connect;
    }

    /** The workdir as text, what {@code {workdir}} is replaced with. */
    String dir() { return workdir.toString(); }

    /** Gets the workdir ready for an episode (a fresh copy of the fixtures) and the server running. */
    void prepare(Path fixtures, boolean restart) {
        try {
            if (Files.exists(workdir)) clear(workdir);
            Files.createDirectories(workdir);
            if (fixtures != null) copy(fixtures, workdir);
        } catch (IOException e) {
            throw new InfrastructureException("cannot prepare the workdir " + workdir + ": " + e.getMessage(), e);
        }
        if (restart && server != null) {
            server.close();
            server = null;
        }
        if (server == null) server = connect.apply(this);
    }

    /** The server session (null when the environment has no MCP server). */
    McpConnection server() { return server; }

    private static void clear(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) Files.delete(p);
            }
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()));
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public void close() {
        if (server != null) server.close();
        server = null;
    }

    /** Deletes a folder and everything in it, quietly. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) return;
        try {
            clear(dir);
            Files.delete(dir);
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind
        }
    }
}
