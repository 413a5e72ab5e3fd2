package dev.openagent.store;

import dev.openagent.UserInputException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Schema 1 to 2, done once by the first process that opens a store of schema 1 to write, in the transaction that holds
 * the schema lock (so a second process waits for it, then finds schema 2): each episode gets its failure category and
 * whether it was attacked (read from its trajectory, a page at a time), and each run's links the listing columns
 * ({@link StoreSchema#LISTING_COLUMNS}) and their index. Processes of schema 2 do no DDL on open, so shards of one run
 * opening a store together never wait on each other's writes. An older openagent refuses the upgraded store (it reads
 * schema 1 only), so no writer of links without listing columns is left.
 */
final class SchemaUpgrade {
    private static final int PAGE = 500;
    /** PostgreSQL's lock_not_available: the lock timeout below passed. */
    private static final String LOCK_NOT_AVAILABLE = "55P03";

    private SchemaUpgrade() {}

    static void toListing(StoreLocation location, Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            // ALTER TABLE waits for the writes in flight (an older openagent still writing), and every read queued
            // behind it would wait too: give up after a while instead, and say why
            if (location instanceof StoreLocation.Postgres) s.execute("SET LOCAL lock_timeout = '10s'");
            s.execute("ALTER TABLE episodes ADD COLUMN failure TEXT");
            s.execute("ALTER TABLE episodes ADD COLUMN attacked INTEGER");
            for (var column : StoreSchema.LISTING_TYPES.entrySet()) {
                s.execute("ALTER TABLE run_episodes ADD COLUMN " + column.getKey() + " " + column.getValue());
            }
            classify(c);
            s.execute("UPDATE run_episodes SET (" + StoreSchema.LISTING_COLUMNS + ") = (SELECT " + StoreSchema.LISTING_COLUMNS
                    + " FROM episodes e WHERE e.id = run_episodes.episode_id)");
            s.execute(StoreSchema.RUN_LISTING_INDEX);
            s.execute(StoreSchema.LINKS_OF_EPISODE_INDEX);
            s.execute("UPDATE meta SET value = '" + StoreSchema.SCHEMA_VERSION + "' WHERE key = 'schema_version'");
        } catch (SQLException e) {
            c.rollback();
            if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                throw new UserInputException(location + " is of schema 1, and upgrading it to schema " + StoreSchema.SCHEMA_VERSION
                        + " waits for a write another process holds (an older openagent still writing it?): open it again when that has finished");
            }
            throw e;
        }
    }

    /** Stores what every episode's trajectory gives its own columns ({@link Runs.Derived}), reading a page at a time in id order. */
    private static void classify(Connection c) throws SQLException {
        String after = "";
        try (PreparedStatement read = c.prepareStatement(
                "SELECT id, success, end_reason, detail, trajectory, gold_calls, gold_tools FROM episodes WHERE id > ? ORDER BY id LIMIT " + PAGE);
             PreparedStatement write = c.prepareStatement("UPDATE episodes SET failure = ?, attacked = ? WHERE id = ?")) {
            while (true) {
                read.setString(1, after);
                LinkedHashMap<String, Runs.Derived> page = new LinkedHashMap<>();
                try (ResultSet rs = read.executeQuery()) {
                    while (rs.next()) {
                        page.put(rs.getString(1), Runs.Derived.of(rs.getInt(2) == 1, rs.getString(3), rs.getString(4), rs.getString(5),
                                rs.getInt(6), rs.getString(7)));
                    }
                }
                if (page.isEmpty()) return;
                for (Map.Entry<String, Runs.Derived> row : page.entrySet()) {
                    row.getValue().bind(write, 1);
                    write.setString(3, row.getKey());
                    write.addBatch();
                }
                write.executeBatch();
                after = page.lastEntry().getKey();
            }
        }
    }
}
