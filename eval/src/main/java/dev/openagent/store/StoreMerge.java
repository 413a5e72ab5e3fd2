package dev.openagent.store;

import dev.openagent.UserInputException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Merges results stores into one: the shard stores of one experiment run on machines without a
 * shared database, or any stores whose runs belong together. Runs, episodes, their links, the
 * cached model replies, frontier verdicts and learning curves are copied; merging twice changes nothing.
 * <p>
 * An episode is the same episode in every store (its id hashes its identity), so it is copied once.
 * When the target holds it as an infrastructure error and a source finished it, the finished one
 * replaces it, as a rerun would. When both finished with different outcomes (a sampled model, or
 * stores of different harness builds), the target's is kept and the pair is reported as a
 * conflict. A run that exists in the target with another experiment is reported and left alone.
 */
public final class StoreMerge {
    private static final int PAGE = 500;
    /** Integer columns of the episodes table (copied as numbers; the rest are text). */
    private static final Set<String> NUMBERS = Set.of("task_index", "task_seed", "trial", "difficulty", "solvable", "success", "turns",
            "tool_calls", "tool_errors", "prompt_tokens", "completion_tokens", "gold_calls", "duration_ms");
    private static final List<String> COLUMNS = java.util.Arrays.stream(Runs.EPISODE_COLUMNS.split(",")).map(String::strip).toList();
    /** The columns that make an episode's outcome: two finished copies that differ here are in conflict. */
    private static final String OUTCOME = "success, end_reason, detail, turns, tool_calls, tool_errors";

    private StoreMerge() {}

    /** One episode both stores finished, with different outcomes. */
    public record Conflict(String episodeId, String source, String kept, String other) {}

    /**
     * What a merge did.
     *
     * @param episodesAdded    episodes the target did not have (or held as an infrastructure error)
     * @param episodesPresent  episodes the target already had with the same outcome
     * @param runConflicts     runs left alone because the target holds another experiment under the same id
     */
    public record Result(int runsAdded, int runsJoined, int episodesAdded, int episodesPresent, int responsesAdded,
                         List<Conflict> conflicts, List<String> runConflicts, List<RunInfo> runs) {}

    /**
     * Merges every source into the store at {@code target} (created when missing) so that a failure leaves it as it
     * was. Every source is opened read-only and checked first (a file that is not a results store, or a damaged one,
     * is refused before anything is written). An SQLite target is merged in a copy beside it, which replaces it only
     * once the merge is complete; a PostgreSQL target is written in place (merging again completes a merge that
     * stopped).
     *
     * @throws IllegalArgumentException in one line: a source that is not a results store, is damaged or cannot be
     *                                  read, or a target another process has open
     */
    public static Result mergeInto(List<StoreLocation> sources, StoreLocation target) {
        for (StoreLocation source : sources) {
            try (ResultStore from = ResultStore.openReadOnly(source)) {
                from.checkIntact();
            }
        }
        try {
            if (target instanceof StoreLocation.SqliteFile file) return mergeReplacing(sources, file);
            try (ResultStore into = ResultStore.open(target)) {
                return merge(sources, into);
            }
        } catch (IllegalStateException e) {
            // A source that failed mid-read (damage quick_check did not see), or a write that failed.
            throw new UserInputException("the merge stopped, " + target + (target instanceof StoreLocation.SqliteFile
                    ? " is left as it was: " : " may hold part of it (merge again once the cause is fixed): ") + e.getMessage(), e);
        }
    }

    /** Merges into a copy of the SQLite file (a new file when there is none), then puts the copy in its place. */
    private static Result mergeReplacing(List<StoreLocation> sources, StoreLocation.SqliteFile target) {
        Path file = target.file().toAbsolutePath();
        Path copy = file.resolveSibling("." + file.getFileName() + ".merging-" + HexFormat.of().toHexDigits(new SecureRandom().nextInt()));
        try {
            if (Files.isRegularFile(file) && Files.size(file) > 0) {
                try (ResultStore existing = ResultStore.open(target)) {   // its schema checked; closing it checkpoints its log
                    existing.copyTo(copy);
                }
                // The log outlives the last connection only while another process has the store open: a file put in
                // its place would lose that process's writes, or get its log replayed onto the wrong pages.
                if (Files.exists(Path.of(file + "-wal"))) {
                    throw new UserInputException(target + " is open in another process: merge into it once that process has finished");
                }
            }
            Result result;
            try (ResultStore into = ResultStore.open(new StoreLocation.SqliteFile(copy))) {
                result = merge(sources, into);
            }
            Files.move(copy, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return result;
        } catch (IOException e) {
            throw new UserInputException("cannot write " + target + ": " + e.getMessage(), e);
        } finally {
            for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
                try {
                    Files.deleteIfExists(Path.of(copy + suffix));
                } catch (IOException ignored) {
                    // a leftover hidden file beside the store; nothing else depends on it
                }
            }
        }
    }

    /** Merges every source into {@code target} (already open), in place; each source is opened read-only, read and closed in turn. */
    public static Result merge(List<StoreLocation> sources, ResultStore target) {
        Counts n = new Counts();
        Map<String, RunInfo> touched = new LinkedHashMap<>();
        for (StoreLocation source : sources) {
            try (ResultStore from = ResultStore.openReadOnly(source)) {
                List<String> runIds = new ArrayList<>();
                for (RunInfo r : from.runs()) {
                    Optional<RunInfo> existing = target.run(r.id());
                    if (existing.isPresent() && !Runs.sameExperiment(existing.get().config(), r.config())) {
                        n.runConflicts.add(r.id() + " (in " + source + ": another experiment than the target's run of that id)");
                        continue;
                    }
                    if (existing.isEmpty()) {
                        target.saveRun(r.id(), r.name(), r.config(), r.planned(), r.status(), r.note());
                        n.runsAdded++;
                    } else {
                        n.runsJoined++;
                    }
                    runIds.add(r.id());
                }
                copyEpisodes(source, from, target, n);
                for (String runId : runIds) {
                    target.link(runId, links(from, runId));
                    // a frontier's verdicts, when the target has none (a frontier is one process's search), and every curve point
                    if (target.frontier(runId).isEmpty()) from.frontier(runId).ifPresent(v -> target.saveFrontier(runId, v));
                    for (CurvePoint p : from.curve(runId)) target.curvePoint(runId, p.series(), p.x(), p.metric(), p.value(), p.lo(), p.hi());
                    touched.put(runId, null);
                }
                n.responsesAdded += copyResponses(from, target);
                target.flush();
            }
        }
        // A run is complete once every planned episode is scored, whichever store each came from.
        List<RunInfo> runs = new ArrayList<>();
        for (String id : touched.keySet()) {
            RunInfo r = target.run(id).orElseThrow();
            int finished = target.progress(id).finished();
            RunStatus status = finished >= r.planned() ? RunStatus.COMPLETE : r.status() == RunStatus.COMPLETE ? RunStatus.PARTIAL : r.status();
            if (status != r.status()) target.saveRun(r.id(), r.name(), r.config(), r.planned(), status, status == RunStatus.COMPLETE ? null : r.note());
            runs.add(target.run(id).orElseThrow());
        }
        target.flush();
        return new Result(n.runsAdded, n.runsJoined, n.episodesAdded, n.episodesPresent, n.responsesAdded, List.copyOf(n.conflicts),
                List.copyOf(n.runConflicts), runs);
    }

    private static final class Counts {
        int runsAdded, runsJoined, episodesAdded, episodesPresent, responsesAdded;
        final List<Conflict> conflicts = new ArrayList<>();
        final List<String> runConflicts = new ArrayList<>();
    }

    /** An episode row as read, column by column in {@link #COLUMNS} order. */
    private record Row(String id, Object[] values, String outcome, boolean infraError) {}

    /** Copies episodes page by page (ordered by id), so a large store never sits in memory whole. */
    private static void copyEpisodes(StoreLocation source, ResultStore from, ResultStore target, Counts n) {
        String after = "";
        while (true) {
            String from_ = after;
            List<Row> page = from.reader().read(c -> {
                List<Row> rows = new ArrayList<>();
                try (PreparedStatement p = c.prepareStatement("SELECT " + Runs.EPISODE_COLUMNS + " FROM episodes WHERE id > ? ORDER BY id LIMIT " + PAGE)) {
                    p.setString(1, from_);
                    try (ResultSet rs = p.executeQuery()) {
                        while (rs.next()) rows.add(row(rs));
                    }
                }
                return rows;
            });
            if (page.isEmpty()) return;
            Map<String, Row> there = existing(target, page);
            List<Row> copy = new ArrayList<>();
            for (Row r : page) {
                Row t = there.get(r.id());
                if (t == null || (t.infraError() && !r.infraError())) {
                    copy.add(r);
                } else if (r.infraError() || t.outcome().equals(r.outcome())) {
                    n.episodesPresent++;
                } else {
                    n.conflicts.add(new Conflict(r.id(), source.toString(), t.outcome(), r.outcome()));
                }
            }
            if (!copy.isEmpty()) {
                target.writer().submit(s -> {
                    for (Row r : copy) {
                        s.update(Runs.SAVE_EPISODE, p -> {
                            for (int i = 0; i < COLUMNS.size(); i++) {
                                Object v = r.values()[i];
                                if (v == null) p.setNull(i + 1, NUMBERS.contains(COLUMNS.get(i)) ? Types.BIGINT : Types.VARCHAR);
                                else if (v instanceof Long l) p.setLong(i + 1, l);
                                else p.setString(i + 1, (String) v);
                            }
                            derived(r.values()).bind(p, COLUMNS.size() + 1);
                        });
                        s.update(Runs.REFRESH_LINKS, p -> {
                            p.setString(1, r.id());
                            p.setString(2, r.id());
                        });
                    }
                }, true);
                n.episodesAdded += copy.size();
            }
            after = page.getLast().id();
        }
    }

    private static Row row(ResultSet rs) throws SQLException {
        Object[] values = new Object[COLUMNS.size()];
        for (int i = 0; i < COLUMNS.size(); i++) {
            if (NUMBERS.contains(COLUMNS.get(i))) {
                long v = rs.getLong(i + 1);
                values[i] = rs.wasNull() ? null : v;
            } else {
                values[i] = rs.getString(i + 1);
            }
        }
        String end = (String) values[COLUMNS.indexOf("end_reason")];
        return new Row((String) values[0], values, outcome(values), "INFRA_ERROR".equals(end));
    }

    /** What a row as read gives the columns derived from its trajectory (a source of schema 1 does not hold them). */
    private static Runs.Derived derived(Object[] v) {
        Long goldCalls = (Long) v[COLUMNS.indexOf("gold_calls")];
        return Runs.Derived.of(Long.valueOf(1).equals(v[COLUMNS.indexOf("success")]), (String) v[COLUMNS.indexOf("end_reason")],
                (String) v[COLUMNS.indexOf("detail")], (String) v[COLUMNS.indexOf("trajectory")], goldCalls == null ? 0 : goldCalls.intValue(),
                (String) v[COLUMNS.indexOf("gold_tools")]);
    }

    private static String outcome(Object[] values) {
        List<String> parts = new ArrayList<>();
        for (String c : OUTCOME.split(", ")) parts.add(c + "=" + values[COLUMNS.indexOf(c)]);
        return String.join(" ", parts);
    }

    /** The target's copies of a page's episodes, by id. */
    private static Map<String, Row> existing(ResultStore target, List<Row> page) {
        return target.reader().read(c -> {
            Map<String, Row> out = new HashMap<>();
            String marks = String.join(",", java.util.Collections.nCopies(page.size(), "?"));
            try (PreparedStatement p = c.prepareStatement("SELECT " + Runs.EPISODE_COLUMNS + " FROM episodes WHERE id IN (" + marks + ")")) {
                for (int i = 0; i < page.size(); i++) p.setString(i + 1, page.get(i).id());
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        Row r = row(rs);
                        out.put(r.id(), r);
                    }
                }
            }
            return out;
        });
    }

    private static List<String> links(ResultStore from, String runId) {
        return from.reader().strings("SELECT episode_id FROM run_episodes WHERE run_id = ?", runId);
    }

    /** Copies the cached replies the target lacks (a key already there keeps its reply); returns how many. */
    private static int copyResponses(ResultStore from, ResultStore target) {
        int added = 0;
        String after = "";
        while (true) {
            String from_ = after;
            List<String[]> page = from.reader().read(c -> {
                List<String[]> rows = new ArrayList<>();
                try (PreparedStatement p = c.prepareStatement("SELECT key, model, body, created_at FROM responses WHERE key > ? ORDER BY key LIMIT " + PAGE)) {
                    p.setString(1, from_);
                    try (ResultSet rs = p.executeQuery()) {
                        while (rs.next()) rows.add(new String[]{rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
                    }
                }
                return rows;
            });
            if (page.isEmpty()) return added;
            int[] inserted = new int[1];
            target.writer().submit(s -> {
                inserted[0] = 0;
                for (String[] r : page) {
                    PreparedStatement p = s.prepare("INSERT INTO responses(key, model, body, created_at) VALUES (?,?,?,?) ON CONFLICT(key) DO NOTHING");
                    for (int i = 0; i < 4; i++) p.setString(i + 1, r[i]);
                    inserted[0] += p.executeUpdate();
                }
            }, true);
            added += inserted[0];
            after = page.getLast()[0];
        }
    }

    /** Whether two locations name the same store (a source given as the target too). */
    public static boolean same(StoreLocation a, StoreLocation b) {
        if (a instanceof StoreLocation.SqliteFile x && b instanceof StoreLocation.SqliteFile y) {
            return x.file().toAbsolutePath().normalize().equals(y.file().toAbsolutePath().normalize());
        }
        return Objects.equals(a.toString(), b.toString());
    }
}
