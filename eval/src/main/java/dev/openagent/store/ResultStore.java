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

    private final StoreLocation location;
    private final StoreWriter writer;
    private final StoreReader reader;
    private final Runs runs;
    private final EpisodeReads reads;
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
            listed = StoreSchema.prepareSchema(location, w, readOnly);
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
        this.runs = new Runs(writer, reader);
        this.reads = new EpisodeReads(reader, listed);
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
    public RunProgress progress(String runId) { return reads.progress(runId); }

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
    public Map<String, Outcome> outcomes(String runId) { return reads.outcomes(runId); }

    /** The episodes of a run, in plan order. */
    public List<EpisodeResult> episodes(String runId) { return reads.episodes(runId); }

    /** The run's episodes for its scorecard, without their trajectories; see {@link EpisodeSummaries}. */
    public EpisodeSummaries episodeSummaries(String runId) { return reads.summaries(runId); }

    /** These episodes without their trajectories, in the order given (ids the store does not hold are left out). */
    public EpisodeSummaries episodeSummaries(List<String> ids) { return reads.summaries(ids); }

    /** These episodes by id, in the order given; ids the store does not hold are left out. */
    public List<EpisodeResult> episodes(List<String> ids) { return reads.episodes(ids); }

    /** The ids of the run's episodes that pass the filter, in plan order, {@code limit} of them from {@code offset} (paged in SQL), and their count. */
    public EpisodePage episodePage(String runId, EpisodeFilter filter, int offset, int limit) {
        return reads.episodePage(runId, filter, offset, limit);
    }

    /** The ids of the run's episodes that pass the filter, in plan order, {@code limit} of them from {@code offset}, without their count. */
    public List<String> episodeIds(String runId, EpisodeFilter filter, int offset, int limit) {
        return reads.episodeIds(runId, filter, offset, limit);
    }

    /** How many episodes are linked to the run, whatever their state (cheap: the links alone). */
    public int linkedEpisodes(String runId) { return reads.linked(runId); }

    /** How many of the run's episodes pass the filter. */
    public int countEpisodes(String runId, EpisodeFilter filter) { return reads.count(runId, filter); }

    /** The agents, environments, tiers and shifts the run's episodes hold. */
    public RunFacets facets(String runId) { return reads.facets(runId); }

    /** The id of the static episode of the same configuration, agent, environment, task seed and trial, if stored. */
    public Optional<String> staticTwin(dev.openagent.results.EpisodeKey key) { return reads.staticTwin(key); }

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
