package dev.openagent.store;

import dev.openagent.agent.openai.ResponseCache;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.run.EpisodeKey;
import dev.openagent.run.EpisodeResult;
import dev.openagent.run.GoldFacts;
import dev.openagent.sandbox.Outcome;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The results store: an embedded SQLite database (WAL mode) holding runs, episodes with their
 * trajectories, and the cache of model responses.
 * <p>
 * Writes go through one writer thread that owns the write connection, so many episodes can finish
 * at once while SQLite sees a single writer; each batch the writer takes is one transaction,
 * committed as soon as it is taken, so a killed process loses at most the episodes still in
 * flight. Reads (the cache, planning, reports) use a second connection and see committed data.
 */
public final class ResultStore implements ResponseCache, AutoCloseable {
    public static final Path DEFAULT = Path.of("runs", "openagent.db");
    static final int SCHEMA_VERSION = 1;
    private static final int MAX_BATCH = 512;

    private final Path file;
    private final Connection reader;
    private final ReentrantLock readLock = new ReentrantLock();
    private final PreparedStatement getResponse;
    private final BlockingQueue<Write> queue = new LinkedBlockingQueue<>();
    private final Thread writer;
    private volatile Throwable writerFailure;
    private volatile boolean closed;

    /** One unit of work for the writer thread, given the writer's statements. */
    private interface Op {
        void apply(Writer w) throws SQLException;
    }

    /** The write connection and its prepared statements; used by the writer thread only. */
    private static final class Writer {
        final Connection connection;
        private final java.util.Map<String, PreparedStatement> statements = new java.util.HashMap<>();

        Writer(Connection connection) { this.connection = connection; }

        PreparedStatement prepare(String sql) throws SQLException {
            PreparedStatement p = statements.get(sql);
            if (p == null) {
                p = connection.prepareStatement(sql);
                statements.put(sql, p);
            }
            return p;
        }

        void close() {
            try {
                for (PreparedStatement p : statements.values()) p.close();
                connection.close();
            } catch (SQLException ignored) {
                // closing after the last commit
            }
        }
    }

    private record Write(Op op, CompletableFuture<Void> done) {}

    private static final Write STOP = new Write(w -> {}, null);

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
        this.reader = connect(file);
        this.getResponse = reader.prepareStatement("SELECT body FROM responses WHERE key = ?");
        Writer writes = new Writer(w);
        this.writer = Thread.ofPlatform().name("results-store-writer").daemon(true).start(() -> writeLoop(writes));
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

    // ------------------------------------------------------------------ writer

    private void writeLoop(Writer w) {
        Connection c = w.connection;
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
                        item.op().apply(w);
                        if (item.done() != null) done.add(item.done());
                    }
                    c.commit();
                    done.forEach(f -> f.complete(null));
                } catch (SQLException | RuntimeException | Error e) {
                    writerFailure = e;
                    try {
                        c.rollback();
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
            w.close();
        }
    }

    private CompletableFuture<Void> submit(Op op, boolean wait) {
        if (closed) throw new IllegalStateException("results store " + file + " is closed");
        Throwable f = writerFailure;
        if (f != null) throw new IllegalStateException("results store " + file + " failed to write: " + f.getMessage(), f);
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Write(op, done));
        if (wait) await(done);
        return done;
    }

    private void await(CompletableFuture<Void> done) {
        try {
            // Waits in slices so a writer thread that died (an Error) cannot leave the caller waiting forever.
            while (true) {
                try {
                    done.get(1, java.util.concurrent.TimeUnit.SECONDS);
                    return;
                } catch (java.util.concurrent.TimeoutException stillQueued) {
                    if (!writer.isAlive()) {
                        Throwable f = writerFailure;
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
    public void flush() {
        submit(w -> {}, true);
    }

    // ------------------------------------------------------------------ runs

    /** Creates the run or, when it exists (the same experiment again), updates its name, plan and status. */
    public void saveRun(String id, String name, String config, int planned, String status, String note) {
        String now = Instant.now().toString();
        submit(w -> {
            {
                PreparedStatement p = w.prepare("""
                    INSERT INTO runs(id, name, config, created_at, updated_at, planned, status, note) VALUES (?,?,?,?,?,?,?,?)
                    ON CONFLICT(id) DO UPDATE SET name=excluded.name, config=excluded.config, updated_at=excluded.updated_at,
                      planned=excluded.planned, status=excluded.status, note=excluded.note""");
                p.setString(1, id);
                p.setString(2, name);
                p.setString(3, config);
                p.setString(4, now);
                p.setString(5, now);
                p.setInt(6, planned);
                p.setString(7, status);
                p.setString(8, note);
                p.executeUpdate();
            }
        }, true);
    }

    public List<RunInfo> runs() {
        return read(c -> {
            List<RunInfo> out = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT id, name, config, created_at, updated_at, planned, status, note FROM runs ORDER BY updated_at DESC, id")) {
                while (rs.next()) {
                    out.add(new RunInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getInt(6), rs.getString(7), rs.getString(8)));
                }
            }
            return out;
        });
    }

    public Optional<RunInfo> run(String id) {
        return runs().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    // ------------------------------------------------------------------ episodes

    /** Ids of episodes with this configuration that finished (anything but an infrastructure error). */
    public Set<String> finishedEpisodes(String configHash) {
        return read(c -> {
            Set<String> ids = new HashSet<>();
            try (PreparedStatement p = c.prepareStatement("SELECT id FROM episodes WHERE config_hash = ? AND end_reason <> 'INFRA_ERROR'")) {
                p.setString(1, configHash);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) ids.add(rs.getString(1));
                }
            }
            return ids;
        });
    }

    /** Records that a run includes episodes finished before (by an earlier run or an interrupted one). */
    public void link(String runId, Collection<String> episodeIds) {
        if (episodeIds.isEmpty()) return;
        List<String> ids = List.copyOf(episodeIds);
        submit(w -> {
            {
                PreparedStatement p = w.prepare("INSERT OR IGNORE INTO run_episodes(run_id, episode_id) VALUES (?, ?)");
                for (String id : ids) {
                    p.setString(1, runId);
                    p.setString(2, id);
                    p.addBatch();
                }
                p.executeBatch();
            }
        }, true);
    }

    /** Saves a finished episode (replacing an earlier infrastructure error of the same identity); returns at once. */
    public void saveEpisode(String runId, EpisodeResult r) {
        String trajectory = r.trajectory() == null ? null : r.trajectory().toJson();
        String goldTools = Json.write(r.gold().tools());
        String now = Instant.now().toString();
        submit(w -> {
            {
                PreparedStatement p = w.prepare("""
                    INSERT OR REPLACE INTO episodes(id, config_hash, agent, env, shift, tier, task_index, task_seed, trial, task_id, kind,
                      difficulty, solvable, success, end_reason, detail, turns, tool_calls, tool_errors, prompt_tokens, completion_tokens,
                      gold_calls, gold_tools, trajectory, duration_ms, finished_at)
                    VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)""");
                EpisodeKey k = r.key();
                Trajectory t = r.trajectory();
                int i = 1;
                p.setString(i++, k.id());
                p.setString(i++, k.configHash());
                p.setString(i++, k.agent());
                p.setString(i++, k.env());
                p.setString(i++, k.shift());
                p.setString(i++, r.tier());
                p.setInt(i++, r.taskIndex());
                p.setLong(i++, k.taskSeed());
                p.setInt(i++, k.trial());
                p.setString(i++, t == null ? null : t.taskId());
                p.setString(i++, t == null ? null : t.kind());
                p.setInt(i++, t == null ? 0 : t.difficulty());
                p.setInt(i++, r.solvable() ? 1 : 0);
                p.setInt(i++, r.success() ? 1 : 0);
                p.setString(i++, r.outcome().end().name());
                p.setString(i++, r.outcome().detail());
                p.setInt(i++, r.stats().turns());
                p.setInt(i++, r.stats().toolCalls());
                p.setInt(i++, r.stats().toolErrors());
                p.setLong(i++, r.stats().promptTokens());
                p.setLong(i++, r.stats().completionTokens());
                p.setInt(i++, r.gold().calls());
                p.setString(i++, goldTools);
                p.setString(i++, trajectory);
                p.setLong(i++, r.durationMs());
                p.setString(i, now);
                p.executeUpdate();
            }
            {
                PreparedStatement p = w.prepare("INSERT OR IGNORE INTO run_episodes(run_id, episode_id) VALUES (?, ?)");
                p.setString(1, runId);
                p.setString(2, r.id());
                p.executeUpdate();
            }
        }, false);
    }

    /** The episodes of a run, in plan order. */
    public List<EpisodeResult> episodes(String runId) {
        return read(c -> {
            List<EpisodeResult> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("""
                    SELECT e.config_hash, e.agent, e.env, e.shift, e.task_seed, e.trial, e.tier, e.task_index, e.success, e.end_reason,
                           e.detail, e.trajectory, e.gold_calls, e.gold_tools, e.duration_ms
                    FROM run_episodes r JOIN episodes e ON e.id = r.episode_id
                    WHERE r.run_id = ? ORDER BY e.task_index, e.trial, e.agent, e.env, e.shift""")) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        EpisodeKey key = new EpisodeKey(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5), rs.getInt(6));
                        Outcome outcome = new Outcome(rs.getInt(9) == 1, Outcome.End.valueOf(rs.getString(10)), rs.getString(11));
                        String tj = rs.getString(12);
                        Trajectory t = tj == null ? null : Trajectory.fromJson(tj);
                        List<String> gold = List.of(Json.read(rs.getString(14), String[].class));
                        out.add(new EpisodeResult(key, rs.getString(7), rs.getInt(8), outcome, t, new GoldFacts(rs.getInt(13), gold), rs.getLong(15)));
                    }
                }
            }
            return out;
        });
    }

    // ------------------------------------------------------------------ response cache

    @Override
    public Optional<String> get(String key) {
        return read(c -> {
            getResponse.setString(1, key);
            try (ResultSet rs = getResponse.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        });
    }

    @Override
    public void put(String key, String model, String body) {
        String now = Instant.now().toString();
        submit(w -> {
            {
                PreparedStatement p = w.prepare("INSERT OR REPLACE INTO responses(key, model, body, created_at) VALUES (?,?,?,?)");
                p.setString(1, key);
                p.setString(2, model);
                p.setString(3, body);
                p.setString(4, now);
                p.executeUpdate();
            }
        }, false);
    }

    /** Number of cached responses (for reports and tests). */
    public long cachedResponses() {
        return read(c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM responses")) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    // ------------------------------------------------------------------ plumbing

    private interface Query<T> {
        T run(Connection c) throws SQLException;
    }

    private <T> T read(Query<T> q) {
        if (closed) throw new IllegalStateException("results store " + file + " is closed");
        readLock.lock();
        try {
            return q.run(reader);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read results store " + file + ": " + e.getMessage(), e);
        } finally {
            readLock.unlock();
        }
    }

    /** Commits everything queued, then closes both connections. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        queue.add(STOP);
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        readLock.lock();
        try {
            getResponse.close();
            reader.close();
        } catch (SQLException ignored) {
            // nothing left to do with a failing close
        } finally {
            readLock.unlock();
        }
        Throwable f = writerFailure;
        if (f != null) throw new IllegalStateException("results store " + file + " failed to write: " + f.getMessage(), f);
    }
}
