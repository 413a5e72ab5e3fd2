package dev.openagent.store;

import dev.openagent.UserInputException;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The results store's one schema, for either engine: its tables and indexes, the listing columns a run's links carry,
 * the tables added to schema 2 since, and the check (and creation) of the schema when a store is opened.
 */
final class StoreSchema {
    /** The schema this openagent writes; it reads 1 (and upgrades it, {@link SchemaUpgrade}) and 2. */
    static final int SCHEMA_VERSION = 2;
    private static final Set<String> TABLES = Set.of("meta", "runs", "episodes", "run_episodes", "responses");

    private StoreSchema() {}

    /**
     * Checks the schema and creates it in a store that has none, in one transaction. A store of
     * another schema version, or a database that holds tables of these names without a version
     * (not a results store), is refused with one line rather than failing later mid-run. A store of
     * schema 1 is upgraded by the first process that opens it to write ({@link SchemaUpgrade}), and read as it is
     * by one that opens it read-only.
     *
     * @return whether the store holds the listing columns (schema 2)
     */
    static boolean prepareSchema(StoreLocation location, Connection c, boolean readOnly) throws SQLException {
        if (!readOnly) location.lockSchema(c);
        Set<String> present = new HashSet<>();
        try (ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), "%", new String[]{"TABLE"})) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT);
                if (TABLES.contains(name)) present.add(name);
            }
        }
        if (present.contains("meta")) {
            Integer v = null;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE key='schema_version'")) {
                if (rs.next()) v = Integer.valueOf(rs.getString(1).strip());
            } catch (NumberFormatException e) {
                v = null;
            }
            if (v == null) {
                c.rollback();
                throw new UserInputException(location + " has a meta table without a results store schema version: not an openagent results store");
            }
            if (v < 1 || v > SCHEMA_VERSION) {
                c.rollback();
                throw new UserInputException(location + " has results store schema " + v + (v < SCHEMA_VERSION ? " (from an older openagent)"
                        : " (from a newer openagent)") + "; this openagent reads schema " + SCHEMA_VERSION + " (and upgrades schema 1)");
            }
            if (v == 1 && readOnly) {
                c.rollback();
                return false;
            }
            // indexes added since the schema was created, built once by the first process that opens the store to write;
            // looked up first, because CREATE INDEX locks the table against writes before it sees the index exists, and a
            // process opening a store another holds mid-write (a shard beside other shards) would wait for that write
            if (!readOnly && !hasIndex(c, "episodes", "episodes_listing")) {
                try (Statement s = c.createStatement()) {
                    s.execute(LISTING_INDEX);
                }
            }
            if (v == 1) SchemaUpgrade.toListing(location, c);
            if (!readOnly) addTables(c);
            c.commit();
            return true;
        }
        if (readOnly) {
            c.rollback();
            throw new UserInputException(location + " is not an openagent results store (it has no "
                    + (present.isEmpty() ? "results store tables" : "results store schema version") + ")");
        }
        if (!present.isEmpty()) {
            c.rollback();
            throw new UserInputException(location + " holds tables named " + String.join(", ", new java.util.TreeSet<>(present))
                    + " but no results store schema version: not an openagent results store (use another database or file)");
        }
        try (Statement s = c.createStatement()) {
            for (String ddl : schema(location)) s.execute(ddl);
            for (String ddl : ADDED.values()) s.execute(ddl);
            s.execute("INSERT INTO meta(key, value) VALUES ('schema_version', '" + SCHEMA_VERSION + "')");
        }
        c.commit();
        return true;
    }

    /**
     * Tables added to schema 2 after it was released: the frontier's verdicts ({@link Verdicts}) and learning curves
     * ({@link Curves}). They are additive (nothing else reads or changes because of them), so the schema version stays 2:
     * an openagent that predates them opens, reads and writes a store that has them and never touches them, and one
     * that knows them creates them in a store of schema 2 without them, once, when it opens the store to write (looked
     * up first, so a process opening a store that has them does no DDL). A store opened read-only without them reads
     * as having no verdicts and no curves.
     */
    static final java.util.SequencedMap<String, String> ADDED = added();

    private static java.util.SequencedMap<String, String> added() {
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        out.put(Verdicts.SHIFTS, """
                CREATE TABLE IF NOT EXISTS frontier_shifts (
                  run_id TEXT NOT NULL, seq INTEGER NOT NULL, env TEXT NOT NULL, shift TEXT NOT NULL, tier TEXT NOT NULL, status TEXT NOT NULL,
                  breaking_severity INTEGER, severities TEXT NOT NULL, PRIMARY KEY (run_id, seq))""");
        out.put(Verdicts.TESTS, """
                CREATE TABLE IF NOT EXISTS frontier_tests (
                  run_id TEXT NOT NULL, seq INTEGER NOT NULL, env TEXT NOT NULL, shift TEXT, label TEXT NOT NULL, severity INTEGER NOT NULL,
                  verdict TEXT NOT NULL, decided INTEGER NOT NULL, episodes INTEGER NOT NULL, shifted_successes INTEGER NOT NULL,
                  static_successes INTEGER NOT NULL, drop_estimate DOUBLE PRECISION NOT NULL, drop_low DOUBLE PRECISION NOT NULL,
                  drop_high DOUBLE PRECISION NOT NULL, PRIMARY KEY (run_id, seq))""");
        out.put(Curves.TABLE, """
                CREATE TABLE IF NOT EXISTS curve_points (
                  run_id TEXT NOT NULL, series TEXT NOT NULL, metric TEXT NOT NULL, x BIGINT NOT NULL, value DOUBLE PRECISION NOT NULL,
                  lo DOUBLE PRECISION, hi DOUBLE PRECISION, PRIMARY KEY (run_id, series, metric, x))""");
        return java.util.Collections.unmodifiableSequencedMap(out);
    }

    /** Creates the {@link #ADDED} tables a store of schema 2 lacks (in the transaction that holds the schema lock). */
    private static void addTables(Connection c) throws SQLException {
        for (var t : ADDED.entrySet()) {
            if (hasTable(c, t.getKey())) continue;
            try (Statement s = c.createStatement()) {
                s.execute(t.getValue());
            }
        }
    }

    /** Whether the store holds a table of this name (in the connection's schema). */
    static boolean hasTable(Connection c, String name) throws SQLException {
        try (ResultSet rs = c.getMetaData().getTables(null, c.getSchema(), name, new String[]{"TABLE"})) {
            while (rs.next()) if (name.equalsIgnoreCase(rs.getString("TABLE_NAME"))) return true;
        }
        return false;
    }

    private static boolean hasIndex(Connection c, String table, String index) throws SQLException {
        try (ResultSet rs = c.getMetaData().getIndexInfo(null, null, table, false, true)) {
            while (rs.next()) if (index.equalsIgnoreCase(rs.getString("INDEX_NAME"))) return true;
        }
        return false;
    }

    /**
     * What a run's progress and an episode listing read of each episode, so that they read this index and not the rows,
     * which hold whole trajectories (a join of 100,000 episodes read 1.8 s of rows, 0.3 s of index; docs/view.md).
     */
    static final String LISTING_INDEX =
            "CREATE INDEX IF NOT EXISTS episodes_listing ON episodes(id, agent, env, tier, shift, success, end_reason, task_index, trial)";

    /**
     * What a listing reads of an episode, copied to each run's link to it (schema 2), in plan order first: a run's
     * filtered, ordered page is then read from the index {@link #RUN_LISTING_INDEX} alone, without joining the episodes.
     * The agent, environment, shift, tier, task and trial never change; the outcome and the failure category change when
     * an infrastructure error is run again ({@link Runs#REFRESH_LINKS}).
     */
    static final java.util.SequencedMap<String, String> LISTING_TYPES = listing(
            "task_index", "INTEGER", "trial", "INTEGER", "agent", "TEXT", "env", "TEXT", "shift", "TEXT", "tier", "TEXT",
            "success", "INTEGER", "end_reason", "TEXT", "failure", "TEXT");
    /** The listing columns' names in their order, as a column list in SQL. */
    static final String LISTING_COLUMNS = String.join(", ", LISTING_TYPES.keySet());
    static final String RUN_LISTING_INDEX = "CREATE INDEX IF NOT EXISTS run_episodes_listing ON run_episodes(run_id, " + LISTING_COLUMNS + ", episode_id)";
    /** The links of one episode, for {@link Runs#REFRESH_LINKS}. */
    static final String LINKS_OF_EPISODE_INDEX = "CREATE INDEX IF NOT EXISTS run_episodes_episode ON run_episodes(episode_id)";

    /** The one schema, for either engine: integer columns that hold seeds, tokens or durations are 64-bit. */
    private static List<String> schema(StoreLocation location) {
        String keyed = location.keyedTableOptions();
        return List.of(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                """
                CREATE TABLE IF NOT EXISTS runs (
                  id TEXT PRIMARY KEY, name TEXT, config TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
                  planned INTEGER NOT NULL, status TEXT NOT NULL, note TEXT)""",
                """
                CREATE TABLE IF NOT EXISTS episodes (
                  id TEXT PRIMARY KEY, config_hash TEXT NOT NULL, agent TEXT NOT NULL, env TEXT NOT NULL, shift TEXT NOT NULL,
                  tier TEXT NOT NULL, task_index INTEGER NOT NULL, task_seed BIGINT NOT NULL, trial INTEGER NOT NULL,
                  task_id TEXT, kind TEXT, difficulty INTEGER, solvable INTEGER,
                  success INTEGER NOT NULL, end_reason TEXT NOT NULL, detail TEXT,
                  turns INTEGER, tool_calls INTEGER, tool_errors INTEGER, prompt_tokens BIGINT, completion_tokens BIGINT,
                  gold_calls INTEGER NOT NULL, gold_tools TEXT NOT NULL, trajectory TEXT, duration_ms BIGINT, finished_at TEXT NOT NULL,
                  failure TEXT, attacked INTEGER)""",
                "CREATE INDEX IF NOT EXISTS episodes_config ON episodes(config_hash, end_reason)",
                LISTING_INDEX,
                "CREATE TABLE IF NOT EXISTS run_episodes (run_id TEXT NOT NULL, episode_id TEXT NOT NULL, " + listingColumns()
                        + ", PRIMARY KEY (run_id, episode_id))" + keyed,
                RUN_LISTING_INDEX,
                LINKS_OF_EPISODE_INDEX,
                "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, body TEXT NOT NULL, created_at TEXT NOT NULL)" + keyed);
    }

    /** The listing columns with their types, as a table declares them. */
    static String listingColumns() {
        return String.join(", ", LISTING_TYPES.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList());
    }

    /** Name, type, name, type...: in order. */
    private static java.util.SequencedMap<String, String> listing(String... namesAndTypes) {
        java.util.LinkedHashMap<String, String> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < namesAndTypes.length; i += 2) out.put(namesAndTypes[i], namesAndTypes[i + 1]);
        return java.util.Collections.unmodifiableSequencedMap(out);
    }
}
