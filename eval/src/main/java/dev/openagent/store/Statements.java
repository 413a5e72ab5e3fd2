package dev.openagent.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/** A connection of the results store and its statements, each prepared once; used by one thread at a time. */
final class Statements {
    /** Sets the parameters of a statement. */
    interface Binder {
        void bind(PreparedStatement p) throws SQLException;
    }

    final Connection connection;
    private final Map<String, PreparedStatement> prepared = new HashMap<>();

    Statements(Connection connection) { this.connection = connection; }

    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement p = prepared.get(sql);
        if (p == null) {
            p = connection.prepareStatement(sql);
            prepared.put(sql, p);
        }
        return p;
    }

    /** Prepares (once), binds and runs one update. */
    void update(String sql, Binder binder) throws SQLException {
        PreparedStatement p = prepare(sql);
        binder.bind(p);
        p.executeUpdate();
    }

    /** Closes the statements and the connection. */
    void close() {
        try {
            for (PreparedStatement p : prepared.values()) p.close();
            connection.close();
        } catch (SQLException ignored) {
            // nothing left to do with a failing close
        }
    }
}
