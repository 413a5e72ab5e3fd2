package dev.openagent.store;

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
 * finish at once while the database sees a single writer per process; each batch it takes from its queue is one
 * transaction, committed as soon as it is taken, so a killed process loses at most the writes
 * still queued.
 */
final class StoreWriter {
    private static final int MAX_BATCH = 512;
    private static final int MAX_ATTEMPTS = 8;

    /** One unit of work, given the writer's statements. */
    interface Op {
        void apply(Statements s) throws SQLException;
    }

    private record Write(Op op, CompletableFuture<Void> done) {}

    private static final Write STOP = new Write(s -> {}, null);

    private final StoreLocation location;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean closed;

    /** @param connection the write connection, with auto-commit off; closed when the writer stops */
    StoreWriter(StoreLocation location, Connection connection) {
        this.location = location;
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
                boolean stop = batch.remove(STOP);
                commit(s, batch);
                if (stop) break;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            s.close();
        }
    }

    /**
     * Applies a batch in one transaction and completes its waiters. Two processes writing one
     * PostgreSQL database can deadlock on rows both upsert (the same cached reply, the same run);
     * the server then aborts one transaction, which is simply applied again: every write is an
     * upsert, so applying it twice is the same as once.
     */
    private void commit(Statements s, List<Write> batch) {
        for (int attempt = 1; ; attempt++) {
            try {
                for (Write item : batch) item.op().apply(s);
                s.connection.commit();
                for (Write item : batch) if (item.done() != null) item.done().complete(null);
                return;
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    s.connection.rollback();
                } catch (SQLException ignored) {
                    // the failure is what gets reported
                }
                if (e instanceof SQLException q && retryable(q) && attempt < MAX_ATTEMPTS) {
                    sleep(attempt);
                    continue;
                }
                failure = e;
                for (Write item : batch) if (item.done() != null) item.done().completeExceptionally(e);
                return;
            }
        }
    }

    /** Deadlock detected (40P01) or serialization failure (40001): the transaction may simply run again. */
    private static boolean retryable(SQLException e) {
        return "40P01".equals(e.getSQLState()) || "40001".equals(e.getSQLState());
    }

    private static void sleep(int attempt) {
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(5, 20L * attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Queues the work; with {@code wait}, returns once it is committed. */
    void submit(Op op, boolean wait) {
        if (closed) throw new IllegalStateException("results store " + location + " is closed");
        Throwable f = failure;
        if (f != null) throw new IllegalStateException("results store " + location + " failed to write: " + f.getMessage(), f);
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
                        throw new IllegalStateException("results store " + location + " stopped writing" + (f == null ? "" : ": " + f), f);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing results", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("results store " + location + " failed to write: " + e.getCause().getMessage(), e.getCause());
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
