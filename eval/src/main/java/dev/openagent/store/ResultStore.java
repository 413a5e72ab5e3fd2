package dev.openagent.store;

import dev.openagent.agent.openai.ResponseCache;
import dev.openagent.run.EpisodeResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The results store: an embedded SQLite database (WAL mode) holding runs, episodes with their
 * trajectories ({@link Runs}), and the cache of model responses ({@link Responses}).
 * <p>
 * Writes go through one writer thread that owns the write connection ({@link StoreWriter}), so
 * many episodes can finish at once while SQLite sees a single writer; each batch the writer takes
 * is one transaction, committed as soon as it is taken, so a killed process loses at most the
 * episodes still in flight. Reads (the cache, planning, reports) use a second connection
 * ({@link StoreReader}) and see committed data.
 */
public final class ResultStore implements ResponseCache, AutoCloseable {
    public static final Path DEFAULT = Path.of("runs", "openagent.db");
    static final int SCHEMA_VERSION = 1;

    private final Path file;
    private final StoreWriter writer;
    private final StoreReader reader;
    private final Runs runs;
    private final Responses responses;
    private boolean closed;

    private ResultStore(Path file) throws SQLException {
        this.file = file;
        Connection w = connect(file);
        try (Statement s = w.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=NORMAL");
            for (String ddl : SCHEMA) s.execute(ddl);
            s.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema_version', '" + SCHEMA_VERSION + "')");
        }
        try (Statement s = w.createStatement(); ResultSet rs = s.executeQuery("SELECT value FROM meta WHERE key='schema_version'")) {
            int v = rs.next() ? Integer.parseInt(rs.getString(1)) : SCHEMA_VERSION;
            if (v != SCHEMA_VERSION) {
                w.close();
                throw new IllegalArgumentException(file + " has results store schema " + v + "; this openagent reads schema " + SCHEMA_VERSION);
            }
        }
        w.setAutoCommit(false);
        this.reader = new StoreReader(file, connect(file));
        this.writer = new StoreWriter(file, w);
        this.runs = new Runs(writer, reader);
        this.responses = new Responses(writer, reader);
    }

    /** Opens (creating when needed) the store at {@code file}. */
    public static ResultStore open(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) Files.createDirectories(parent);
            return new ResultStore(file);
        } catch (SQLException e) {
            throw new IllegalArgumentException("cannot open results store " + file + ": " + e.getMessage(), e);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot create the directory of " + file + ": " + e.getMessage(), e);
        }
    }

    /** Opens an existing store for reading reports; a missing file is an error, not a new empty store. */
    public static ResultStore openExisting(Path file) {
        if (!Files.isRegularFile(file)) throw new IllegalArgumentException("no results store at " + file + " (run `openagent eval` first, or pass --store)");
        return open(file);
    }

    public Path file() { return file; }

    private static Connection connect(Path file) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA busy_timeout=30000");
        }
        return c;
    }

    private static final List<String> SCHEMA = List.of(
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS runs (
              id TEXT PRIMARY KEY, name TEXT, config TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
              planned INTEGER NOT NULL, status TEXT NOT NULL, note TEXT)""",
            """
            CREATE TABLE IF NOT EXISTS episodes (
              id TEXT PRIMARY KEY, config_hash TEXT NOT NULL, agent TEXT NOT NULL, env TEXT NOT NULL, shift TEXT NOT NULL,
              tier TEXT NOT NULL, task_index INTEGER NOT NULL, task_seed INTEGER NOT NULL, trial INTEGER NOT NULL,
              task_id TEXT, kind TEXT, difficulty INTEGER, solvable INTEGER,
              success INTEGER NOT NULL, end_reason TEXT NOT NULL, detail TEXT,
              turns INTEGER, tool_calls INTEGER, tool_errors INTEGER, prompt_tokens INTEGER, completion_tokens INTEGER,
              gold_calls INTEGER NOT NULL, gold_tools TEXT NOT NULL, trajectory TEXT, duration_ms INTEGER, finished_at TEXT NOT NULL)""",
            "CREATE INDEX IF NOT EXISTS episodes_config ON episodes(config_hash, end_reason)",
            "CREATE TABLE IF NOT EXISTS run_episodes (run_id TEXT NOT NULL, episode_id TEXT NOT NULL, PRIMARY KEY (run_id, episode_id)) WITHOUT ROWID",
            "CREATE TABLE IF NOT EXISTS responses (key TEXT PRIMARY KEY, model TEXT, body TEXT NOT NULL, created_at TEXT NOT NULL) WITHOUT ROWID");

    // ---- runs and episodes ----

    /** Creates the run or, when it exists (the same experiment again), updates its name, plan and status. */
    public void saveRun(String id, String name, String config, int planned, String status, String note) {
        runs.save(id, name, config, planned, status, note);
    }

    /** Every run, the most recently updated first. */
    public List<RunInfo> runs() { return runs.all(); }

    public Optional<RunInfo> run(String id) { return runs.find(id); }

    /** Ids of episodes with this configuration that finished (anything but an infrastructure error). */
    public Set<String> finishedEpisodes(String configHash) { return runs.finishedEpisodes(configHash); }

    /** Records that a run includes episodes finished before (by an earlier run or an interrupted one). */
    public void link(String runId, Collection<String> episodeIds) { runs.link(runId, episodeIds); }

    /** Saves a finished episode (replacing an earlier infrastructure error of the same identity); returns at once. */
    public void saveEpisode(String runId, EpisodeResult r) { runs.saveEpisode(runId, r); }

    /** The episodes of a run, in plan order. */
    public List<EpisodeResult> episodes(String runId) { return runs.episodes(runId); }

    // ---- the response cache ----

    @Override
    public Optional<String> get(String key) { return responses.get(key); }

    @Override
    public void put(String key, String model, String body) { responses.put(key, model, body); }

    /** Waits until everything submitted so far is committed. */
    public void flush() { writer.flush(); }

    /** Commits everything queued, then closes both connections. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        writer.close();
        reader.close();
        Throwable f = writer.failure();
        if (f != null) throw new IllegalStateException("results store " + file + " failed to write: " + f.getMessage(), f);
    }
}
