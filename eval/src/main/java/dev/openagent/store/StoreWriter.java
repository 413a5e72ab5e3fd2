package dev.openagent.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one thread that writes the results store. It owns the write connection, so many episodes can
 * finish at once while SQLite sees a single writer; each batch it takes from its queue is one
 * transaction, committed as soon as it is taken, so a killed process loses at most the writes
 * still queued.
 */
final class StoreWriter {
    private static final int MAX_BATCH = 512;

    /** One unit of work, given the writer's statements. */
    interface Op {
        void apply(Statements s) throws SQLException;
    }

    private record Write(Op op, CompletableFuture<Void> done) {}

    private static final Write STOP = new Write(s -> {}, null);

    private final Path file;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean closed;

    /** @param connection the write connection, with auto-commit off; closed when the writer stops */
    StoreWriter(Path file, Connection connection) {
        this.file = file;
        Statements statements = new Statements(connection);
        this.thread = Thread.ofPlatform().name("results-store-writer").daemon(true).start(() -> loop(statements));
    }

    private void loop(Statements s) {
        List<Write> batch = new ArrayList<>();
        try {
            while (true) {
                batch.clear();
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                boolean stop = false;
                List<CompletableFuture<Void>> done = new ArrayList<>();
                try {
                    for (Write item : batch) {
                        if (item == STOP) {
                            stop = true;
                            continue;
                        }
                        item.op().apply(s);
                        if (item.done() != null) done.add(item.done());
                    }
                    s.connection.commit();
                    done.forEach(f -> f.complete(null));
                } catch (SQLException | RuntimeException | Error e) {
                    failure = e;
                    try {
                        s.connection.rollback();
                    } catch (SQLException ignored) {
                        // the failure above is what gets reported
                    }
                    for (Write item : batch) if (item.done() != null) item.done().completeExceptionally(e);
                }
                if (stop) break;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            s.close();
        }
    }

    /** Queues the work; with {@code wait}, returns once it is committed. */
    void submit(Op op, boolean wait) {
        if (closed) throw new IllegalStateException("results store " + file + " is closed");
        Throwable f = failure;
        if (f != null) throw new IllegalStateException("results store " + file + " failed to write: " + f.getMessage(), f);
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Write(op, done));
        if (wait) await(done);
    }

    /** Queues one update; with {@code wait}, returns once it is committed. */
    void update(String sql, boolean wait, Statements.Binder binder) {
        submit(s -> s.update(sql, binder), wait);
    }

    private void await(CompletableFuture<Void> done) {
        try {
            // Waits in slices so a writer thread that died (an Error) cannot leave the caller waiting forever.
            while (true) {
                try {
                    done.get(1, TimeUnit.SECONDS);
                    return;
                } catch (TimeoutException stillQueued) {
                    if (!thread.isAlive()) {
                        Throwable f = failure;
                        throw new IllegalStateException("results store " + file + " stopped writing" + (f == null ? "" : ": " + f), f);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing results", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("results store " + file + " failed to write: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** Waits until everything submitted so far is committed. */
    void flush() {
        submit(s -> {}, true);
    }

    /** Commits everything queued and stops; throws if a write failed. */
    void close() {
        if (closed) return;
        closed = true;
        queue.add(STOP);
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The first write that failed, or null. */
    Throwable failure() { return failure; }
}
