package dev.openagent.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The results store's read connection: planning, reports and the response cache read committed
 * data through it, one query at a time.
 */
final class StoreReader {
    /** A query on the read connection. */
    interface Query<T> {
        T run(Connection c) throws SQLException;
    }

    private final StoreLocation location;
    private final Statements statements;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile boolean closed;
    /** Tables found so far by {@link #hasTable}: a table, once there, stays. */
    private final java.util.Set<String> tables = java.util.concurrent.ConcurrentHashMap.newKeySet();

    StoreReader(StoreLocation location, Connection connection) {
        this.location = location;
        this.statements = new Statements(connection);
    }

    <T> T read(Query<T> q) {
        if (closed) throw new IllegalStateException("results store " + location + " is closed");
        lock.lock();
        try {
            return q.run(statements.connection);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read results store " + location + ": " + ResultStore.oneLine(e), e);
        } finally {
            lock.unlock();
        }
    }

    /** The first column of every row a query with one text parameter returns, in the order it returns them. */
    List<String> strings(String sql, String param) {
        return read(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(sql)) {
                p.setString(1, param);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /**
     * Whether the store holds this table. A table added to schema 2 since a store was created ({@link StoreSchema#ADDED})
     * is created by the first process that opens the store to write; one that opened it read-only looks again until it is there.
     */
    boolean hasTable(String name) {
        if (tables.contains(name)) return true;
        boolean found = read(c -> StoreSchema.hasTable(c, name));
        if (found) tables.add(name);
        return found;
    }

    /** A statement prepared once and kept, for queries run often (call inside {@link #read}). */
    PreparedStatement prepared(String sql) throws SQLException {
        return statements.prepare(sql);
    }

    void close() {
        closed = true;
        lock.lock();
        try {
            statements.close();
        } finally {
            lock.unlock();
        }
    }
}
