package dev.openagent.byo;

import dev.openagent.episode.InfrastructureException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

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
    /** Set when the workdir holds fresh fixtures and the server was started in it, and no episode ran yet. */
    volatile boolean ready;
    /** The tools that succeeded in this episode, for the {@code after} rules. */
    final java.util.Set<String> succeeded = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Set while the state checks call tools after the answer: the {@code after} rules do not apply to them. */
    volatile boolean checking;

    Worker(int index, Path base, Function<Worker, McpConnection> connect) {
        this.index = index;
        this.workdir = base.resolve("worker-" + index).resolve("work");
        this.log = base.resolve("worker-" + index).resolve("server.log");
        this.connect = connect;
    }

    /** The worker's folder: its workdir and its server's log. */
    Path folder() { return workdir.getParent(); }

    /** The workdir as text, what {@code {workdir}} is replaced with. */
    String dir() { return workdir.toString(); }

    /**
     * Gets the workdir ready for an episode (a fresh copy of the fixtures) and the server running. The server is
     * restarted first when {@code restart}, or when it holds files of the workdir open: a fixture replaced under an
     * open handle is not the file it reads and writes.
     *
     * @return the workdir's files the server held open (empty when none, or when it was not running)
     */
    List<String> prepare(Path fixtures, boolean restart, boolean check) {
        List<String> held = server == null || restart || !check ? List.of() : OpenFiles.under(server.processes(), workdir);
        if ((restart || !held.isEmpty()) && server != null) {
            server.close();
            server = null;
        }
        succeeded.clear();
        checking = false;
        try {
            Fixtures.refill(fixtures, workdir);
        } catch (IOException e) {
            throw new InfrastructureException("cannot prepare the workdir " + workdir + ": " + e.getMessage(), e);
        }
        if (server == null) server = connect.apply(this);
        return held;
    }

    /** The server session (null when the environment has no MCP server). */
    McpConnection server() { return server; }

    @Override
    public void close() {
        if (server != null) server.close();
        server = null;
    }

    /** Deletes a folder and everything in it, quietly. */
    static void delete(Path dir) {
        if (!Files.exists(dir)) return;
        try {
            Fixtures.clear(dir);
            Files.delete(dir);
        } catch (IOException | UncheckedIOException e) {
            // a temporary folder left behind
        }
    }
}
