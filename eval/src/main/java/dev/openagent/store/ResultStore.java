package dev.openagent.store;

import dev.openagent.UserInputException;
import dev.openagent.agent.openai.ResponseCache;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The results store: runs, episodes with their trajectories ({@link Runs}), and the cache of model
 * responses ({@link Responses}), in an SQLite file (WAL mode; the default) or a PostgreSQL
 * database ({@link StoreLocation}); both hold the same schema and behave the same.
 * <p>
 * Writes go through one writer thread that owns the write connection ({@link StoreWriter}), so
 * many episodes can finish at once while the database sees a single writer per process; each
 * batch the writer takes is one transaction, committed as soon as it is taken, so a killed process
 * loses at most the episodes still in flight. Reads (the cache, planning, reports) use a second
 * connection ({@link StoreReader}) and see committed data, including what other processes wrote.
 */
public final class ResultStore implements ResponseCache, AutoCloseable {
    public static final Path DEFAULT = Path.of("runs", "openagent.db");
    static final int SCHEMA_VERSION = 2;
    private static final Set<String> TABLES = Set.of("meta", "runs", "episodes", "run_episodes", "responses");

    private final StoreLocation location;
    private final StoreWriter writer;
    private final StoreReader reader;
    private final Runs runs;
    private final Responses responses;
    private final Curves curves;
    private final Verdicts verdicts;
    private boolean closed;

    private ResultStore(StoreLocation location, boolean readOnly) throws SQLException {
        this.location = location;
        Connection w = readOnly ? location.connectReadOnly() : location.connect();
        boolean listed;
        try {
            w.setAutoCommit(false);
            listed = prepareSchema(location, w, readOnly);
        } catch (SQLException | RuntimeException e) {
            w.close();
            throw e;
        }
        Connection r;
        try {
            r = readOnly ? location.connectReadOnly() : location.connect();
        } catch (SQLException e) {
            w.close();
            throw e;
        }
        this.reader = new StoreReader(location, r);
        this.writer = new StoreWriter(location, w);
        this.runs = new Runs(writer, reader, listed);
        this.responses = new Responses(writer, reader);
        this.curves = new Curves(writer, reader);
        this.verdicts = new Verdicts(writer, reader);
    }

    /** Opens (creating when needed) the SQLite store at {@code file}. */
    public static ResultStore open(Path file) {
        return open(new StoreLocation.SqliteFile(file));
    }

    /** Opens the store, creating its schema when the file or database has none yet. */
    public static ResultStore open(StoreLocation location) {
        return open(location, false);
    }

    /**
     * Opens an existing store that must stay as it is (one merged from): nothing is created in it, and a file or
     * database without the results store schema (an empty file, another program's SQLite database) is refused.
     */
    public static ResultStore openReadOnly(StoreLocation location) {
        if (!location.exists()) throw new UserInputException("no results store at " + location);
        return open(location, true);
    }

    private static ResultStore open(StoreLocation location, boolean readOnly) {
        try {
            return new ResultStore(location, readOnly);
        } catch (SQLException e) {
            // The driver's message may quote its internal jdbc: URL; the user wrote the location.
            String why = oneLine(e).replaceAll("jdbc:[a-z]+:\\S+", java.util.regex.Matcher.quoteReplacement(location.toString()));
            throw new UserInputException("cannot open results store " + location + ": " + why + hint(location, e), e);
        }
    }

    /** Writes a consistent copy of this SQLite store to a new file ({@code VACUUM INTO}). */
    void copyTo(Path file) {
        reader.read(c -> {
            try (java.sql.PreparedStatement p = c.prepareStatement("VACUUM INTO ?")) {
                p.setString(1, file.toAbsolutePath().toString());
                p.execute();
            }
            return null;
        });
    }

    /**
     * Checks that an SQLite store's file is intact (SQLite's quick_check), so a damaged source is refused before a
     * merge writes anything. A PostgreSQL database keeps its own integrity.
     *
     * @throws IllegalArgumentException naming the store and SQLite's first finding
     */
    public void checkIntact() {
        if (!(location instanceof StoreLocation.SqliteFile)) return;
        String verdict;
        try {
            verdict = reader.read(c -> {
                // "ok", or a finding per row (after a "*** in database main ***" heading): the first finding is one line.
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA quick_check")) {
                    while (rs.next()) {
                        String row = rs.getString(1).strip();
                        if (!row.startsWith("***")) return row.replaceAll("\\s*\\R\\s*", " ");
                    }
                    return "SQLite's quick_check found a fault";
                }
            });
        } catch (IllegalStateException e) {
            verdict = e.getCause() instanceof SQLException q ? oneLine(q) : e.getMessage();
        }
        if (!"ok".equals(verdict)) throw new UserInputException(location + " is damaged: " + verdict);
    }

    /** Opens an existing store for reading reports; a missing file is an error, not a new empty store. */
    public static ResultStore openExisting(Path file) {
        return openExisting(new StoreLocation.SqliteFile(file));
    }

    /** As {@link #openExisting(Path)}; a PostgreSQL database must exist on its server (an empty one has no runs). */
    public static ResultStore openExisting(StoreLocation location) {
        if (!location.exists()) throw new UserInputException("no results store at " + location + " (run `openagent eval` first, or pass --store)");
        return open(location);
    }

    public StoreLocation location() { return location; }

    /**
     * Checks the schema and creates it in a store that has none, in one transaction. A store of
     * another schema version, or a database that holds tables of these names without a version
     * (not a results store), is refused with one line rather than failing later mid-run. A store of
     * schema 1 is upgraded by the first process that opens it to write ({@link SchemaUpgrade}), and read as it is
     * by one that opens it read-only.
     *
     * @return whether the store holds the listing columns (schema 2)
     */
    private static boolean prepareSchema(StoreLocation location, Connection c, boolean readOnly) throws SQLException {
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

    /** The driver's message on one line (PostgreSQL's carry a "Detail:" or "Hint:" on further lines). */
    static String oneLine(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    /** What to check when PostgreSQL refused the login. */
    private static String hint(StoreLocation location, SQLException e) {
        if (!(location instanceof StoreLocation.Postgres pg)) return "";
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        // 28xxx: invalid authorization (wrong password, unknown user); 08004: the server refused (pgjdbc: no password given).
        return state.startsWith("28") || state.equals("08004") ? pg.passwordHint() : "";
    }

    // ---- runs and episodes ----

    /** Creates the run or, when it exists (the same experiment again), updates its name, plan and status. */
    public void saveRun(String id, String name, String config, int planned, RunStatus status, String note) {
        runs.save(id, name, config, planned, status, note);
    }

    /**
     * Starts the run, or joins it when it exists: several shards of one experiment, or a rerun,
     * write into one run. Two different experiments under one run id are refused (one line naming
     * what differs), whichever process got there first.
     */
    public void beginRun(String id, String name, String config, int planned) {
        runs.begin(id, name, config, planned).ifPresent(stored -> {
            throw new UserInputException("run " + id + " in " + location + " holds another experiment (" + differences(stored, config)
                    + "): give this one another run id, or run the same experiment");
        });
    }

    /** The top-level settings in which two stored experiments differ, as {@code key: there vs here}. */
    private static String differences(String stored, String config) {
        com.fasterxml.jackson.databind.JsonNode a = Runs.withoutName(stored);
        com.fasterxml.jackson.databind.JsonNode b = Runs.withoutName(config);
        Set<String> keys = new java.util.TreeSet<>();
        a.fieldNames().forEachRemaining(keys::add);
        b.fieldNames().forEachRemaining(keys::add);
        List<String> out = new java.util.ArrayList<>();
        for (String k : keys) {
            if (!a.path(k).equals(b.path(k))) out.add(k + ": " + abbreviate(a.path(k).toString()) + " there, " + abbreviate(b.path(k).toString()) + " here");
        }
        return out.isEmpty() ? "the stored experiment differs" : String.join("; ", out);
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    /** How many of the run's episodes are stored and scored, whichever process wrote them. */
    public RunProgress progress(String runId) { return runs.progress(runId); }

    /** Every run, the most recently updated first. */
    public List<RunInfo> runs() { return runs.all(); }

    public Optional<RunInfo> run(String id) { return runs.find(id); }

    /** Ids of episodes with this configuration that finished (anything but an infrastructure error). */
    public Set<String> finishedEpisodes(String configHash) { return runs.finishedEpisodes(configHash); }

    /** Records that a run includes episodes finished before (by an earlier run or an interrupted one). */
    public void link(String runId, Collection<String> episodeIds) { runs.link(runId, episodeIds); }

    /** Saves a finished episode (replacing an earlier infrastructure error of the same identity); returns at once. */
    public void saveEpisode(String runId, EpisodeResult r) { runs.saveEpisode(runId, r); }

    /** The outcome of each of the run's episodes, by episode id (light: no trajectories are read). */
    public Map<String, Outcome> outcomes(String runId) { return runs.outcomes(runId); }

    /** The episodes of a run, in plan order. */
    public List<EpisodeResult> episodes(String runId) { return runs.episodes(runId); }

    /** The run's episodes for its scorecard, without their trajectories; see {@link EpisodeSummaries}. */
    public EpisodeSummaries episodeSummaries(String runId) { return runs.summaries(runId); }

    /** These episodes without their trajectories, in the order given (ids the store does not hold are left out). */
    public EpisodeSummaries episodeSummaries(List<String> ids) { return runs.summaries(ids); }

    /** These episodes by id, in the order given; ids the store does not hold are left out. */
    public List<EpisodeResult> episodes(List<String> ids) { return runs.episodes(ids); }

    /** The ids of the run's episodes that pass the filter, in plan order, {@code limit} of them from {@code offset} (paged in SQL), and their count. */
    public EpisodePage episodePage(String runId, EpisodeFilter filter, int offset, int limit) {
        return runs.episodePage(runId, filter, offset, limit);
    }

    /** The ids of the run's episodes that pass the filter, in plan order, {@code limit} of them from {@code offset}, without their count. */
    public List<String> episodeIds(String runId, EpisodeFilter filter, int offset, int limit) {
        return runs.episodeIds(runId, filter, offset, limit);
    }

    /** How many episodes are linked to the run, whatever their state (cheap: the links alone). */
    public int linkedEpisodes(String runId) { return runs.linked(runId); }

    /** How many of the run's episodes pass the filter. */
    public int countEpisodes(String runId, EpisodeFilter filter) { return runs.count(runId, filter); }

    /** The agents, environments, tiers and shifts the run's episodes hold. */
    public RunFacets facets(String runId) { return runs.facets(runId); }

    /** The id of the static episode of the same configuration, agent, environment, task seed and trial, if stored. */
    public Optional<String> staticTwin(dev.openagent.results.EpisodeKey key) { return runs.staticTwin(key); }

    // ---- frontier verdicts and learning curves ----

    /** Replaces the frontier run's verdicts with these (written when its search ends); returns once committed. */
    public void saveFrontier(String runId, FrontierVerdicts verdicts) { this.verdicts.save(runId, verdicts); }

    /** The frontier run's verdicts, or empty when none are stored. */
    public Optional<FrontierVerdicts> frontier(String runId) { return verdicts.of(runId); }

    /**
     * Appends a point to a run's learning curve; returns at once ({@link #flush} waits until it is committed). A point
     * of the same run, series, metric and x given again replaces the stored one, so a rerun writes the same curve.
     * Any producer may add series to any run: {@code train} and {@code adapt} write {@code train}'s loss per step and
     * the success of each evaluated condition with its Wilson interval (docs/view.md).
     *
     * @param series the line: {@code train}, {@code static}, a shift, a group...
     * @param x      steps or episodes so far (one series counts one thing)
     * @param metric {@code loss}, {@code reward}, {@code success}...
     * @param lo     the interval's lower end, or null
     * @param hi     its upper end, or null
     */
    public void curvePoint(String runId, String series, long x, String metric, double value, Double lo, Double hi) {
        curves.put(runId, new CurvePoint(series, x, metric, value, lo, hi));
    }

    /** The run's learning-curve points, by series, metric and x (none when it has no curve). */
    public List<CurvePoint> curve(String runId) { return curves.of(runId); }

    // ---- the response cache ----

    @Override
    public Optional<String> get(String key) { return responses.get(key); }

    @Override
    public void put(String key, String model, String body) { responses.put(key, model, body); }

    /** Waits until everything submitted so far is committed. */
    public void flush() { writer.flush(); }

    StoreWriter writer() { return writer; }

    StoreReader reader() { return reader; }

    /** Commits everything queued, then closes both connections. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        writer.close();
        reader.close();
        Throwable f = writer.failure();
        if (f != null) throw new IllegalStateException("results store " + location + " failed to write: " + f.getMessage(), f);
    }
}
