package dev.openagent.store;

import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs and their episodes in the results store (tables {@code runs}, {@code episodes}, {@code run_episodes}): saving
 * them, and what a run holds; reading its episodes back is {@link EpisodeReads}'.
 */
record Runs(StoreWriter writer, StoreReader reader) {
    /**
     * Creates or updates a run. A shard that finished its part ("partial") never overwrites
     * "complete": another shard may have completed the run after this one counted its episodes.
     * The statuses in these statements are {@link RunStatus#id()}s.
     */
    private static final String SAVE_RUN = """
            INSERT INTO runs(id, name, config, created_at, updated_at, planned, status, note) VALUES (?,?,?,?,?,?,?,?)
            ON CONFLICT(id) DO UPDATE SET name=excluded.name, config=excluded.config, updated_at=excluded.updated_at,
              planned=excluded.planned,
              status=CASE WHEN runs.status = 'complete' AND excluded.status = 'partial' THEN runs.status ELSE excluded.status END,
              note=CASE WHEN runs.status = 'complete' AND excluded.status = 'partial' THEN runs.note ELSE excluded.note END""";
    private static final String CREATE_RUN = """
            INSERT INTO runs(id, name, config, created_at, updated_at, planned, status, note) VALUES (?,?,?,?,?,?,'running',NULL)
            ON CONFLICT(id) DO NOTHING""";
    private static final String JOIN_RUN = "UPDATE runs SET name=?, updated_at=?, planned=?, status='running', note=NULL WHERE id=?";
    /** Links an episode to a run, copying what a listing reads of it from its row (a run may link an episode another run wrote). */
    private static final String LINK = "INSERT INTO run_episodes(run_id, episode_id, " + StoreSchema.LISTING_COLUMNS + ") SELECT ?, id, "
            + StoreSchema.LISTING_COLUMNS + " FROM episodes WHERE id = ? ON CONFLICT DO NOTHING";
    /**
     * Copies an episode's outcome to every run's link to it: an infrastructure error run again is replaced in the
     * episodes, and the runs that linked the failed attempt list the new outcome.
     */
    static final String REFRESH_LINKS = """
            UPDATE run_episodes SET (success, end_reason, failure) = (SELECT e.success, e.end_reason, e.failure FROM episodes e WHERE e.id = ?)
            WHERE episode_id = ?""";
    /**
     * What is kept of an episode's trajectory in columns of its own, so that listings and scorecards need not read it
     * (schema 2), bound after {@link #EPISODE_COLUMNS} by {@link Derived#bind}.
     */
    static final String DERIVED_COLUMNS = "failure, attacked";
    /** The episode table's columns, in the order {@link #bindEpisode} binds them. */
    static final String EPISODE_COLUMNS = """
            id, config_hash, agent, env, shift, tier, task_index, task_seed, trial, task_id, kind, difficulty, solvable, success,
            end_reason, detail, turns, tool_calls, tool_errors, prompt_tokens, completion_tokens, gold_calls, gold_tools, trajectory,
            duration_ms, finished_at""";
    /**
     * Saves an episode; a stored one is replaced only when it ended in an infrastructure error, so
     * a finished episode is never overwritten by a process that ran it again at the same time.
     */
    static final String SAVE_EPISODE = "INSERT INTO episodes(" + EPISODE_COLUMNS + ", " + DERIVED_COLUMNS + ") VALUES "
            + "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT(id) DO UPDATE SET "
            + String.join(", ", java.util.Arrays.stream((EPISODE_COLUMNS + ", " + DERIVED_COLUMNS).split(",")).map(String::strip)
                    .filter(c -> !c.equals("id")).map(c -> c + "=excluded." + c).toList())
            + " WHERE episodes.end_reason = 'INFRA_ERROR'";



    /**
     * @param failure  the failure category ({@link Taxonomy}); null when the trajectory cannot be read (such an episode is
     *                 listed, and no category filter selects it)
     * @param attacked under a security shift, whether the attacker's action happened; null when nobody attacked
     */
    record Derived(String failure, Boolean attacked) {
        static Derived of(EpisodeResult r) {
            return new Derived(Taxonomy.classify(r).id(), r.attacked());
        }

        /** From a stored row's columns and its trajectory's JSON. */
        static Derived of(boolean success, String endReason, String detail, String trajectory, int goldCalls, String goldTools) {
            try {
                Trajectory t = trajectory == null ? null : Trajectory.fromJson(trajectory);
                GoldFacts gold = new GoldFacts(goldCalls, List.of(Json.read(goldTools, String[].class)));
                Outcome outcome = new Outcome(success, Outcome.End.valueOf(endReason), detail);
                return new Derived(Taxonomy.classify(outcome, t, gold).id(), t == null ? null : t.outcome().attacked());
            } catch (RuntimeException e) {
                return new Derived(null, null);
            }
        }

        /** Binds the two columns from parameter {@code i} on. */
        void bind(PreparedStatement p, int i) throws java.sql.SQLException {
            p.setString(i, failure);
            if (attacked == null) p.setNull(i + 1, java.sql.Types.INTEGER);
            else p.setInt(i + 1, attacked ? 1 : 0);
        }
    }

    void save(String id, String name, String config, int planned, RunStatus status, String note) {
        String now = Instant.now().toString();
        writer.update(SAVE_RUN, true, p -> {
            bindRun(p, id, name, config, now, planned);
            p.setString(7, status.id());
            p.setString(8, note);
        });
    }

    /** The first six parameters of {@link #SAVE_RUN} and {@link #CREATE_RUN}: id, name, config, created and updated, planned. */
    private static void bindRun(PreparedStatement p, String id, String name, String config, String now, int planned) throws java.sql.SQLException {
        p.setString(1, id);
        p.setString(2, name);
        p.setString(3, config);
        p.setString(4, now);
        p.setString(5, now);
        p.setInt(6, planned);
    }

    /**
     * Creates the run, or joins it when it exists (another shard of the same experiment, a rerun).
     * Create-or-compare is one transaction, so two processes starting at once agree on the run.
     *
     * @return empty when created or joined; else the experiment the run already holds (another one)
     */
    Optional<String> begin(String id, String name, String config, int planned) {
        String now = Instant.now().toString();
        java.util.concurrent.atomic.AtomicReference<String> other = new java.util.concurrent.atomic.AtomicReference<>();
        writer.submit(s -> {
            other.set(null);
            PreparedStatement create = s.prepare(CREATE_RUN);
            bindRun(create, id, name, config, now, planned);
            if (create.executeUpdate() == 1) return;
            PreparedStatement q = s.prepare("SELECT config FROM runs WHERE id = ?");
            q.setString(1, id);
            String stored;
            try (ResultSet rs = q.executeQuery()) {
                stored = rs.next() ? rs.getString(1) : null;
            }
            if (!sameExperiment(stored, config)) {
                other.set(stored);
                return;
            }
            s.update(JOIN_RUN, p -> {
                p.setString(1, name);
                p.setString(2, now);
                p.setInt(3, planned);
                p.setString(4, id);
            });
        }, true);
        return Optional.ofNullable(other.get());
    }

    /** Whether two runs' experiments (as stored in {@code runs.config}) are the same, whatever their names. */
    static boolean sameExperiment(String a, String b) {
        if (a == null || b == null) return a == b;
        return withoutName(a).equals(withoutName(b));
    }

    static com.fasterxml.jackson.databind.JsonNode withoutName(String config) {
        com.fasterxml.jackson.databind.JsonNode n = Json.parse(config);
        if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove("name");
        return n;
    }

    List<RunInfo> all() {
        return reader.read(c -> {
            List<RunInfo> out = new ArrayList<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT id, name, config, created_at, updated_at, planned, status, note FROM runs ORDER BY updated_at DESC, id")) {
                while (rs.next()) {
                    out.add(new RunInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                            rs.getInt(6), RunStatus.of(rs.getString(7)), rs.getString(8)));
                }
            }
            return out;
        });
    }

    Optional<RunInfo> find(String id) {
        return all().stream().filter(r -> r.id().equals(id)).findFirst();
    }

    Set<String> finishedEpisodes(String configHash) {
        return new HashSet<>(reader.strings("SELECT id FROM episodes WHERE config_hash = ? AND end_reason <> 'INFRA_ERROR'", configHash));
    }

    void link(String runId, Collection<String> episodeIds) {
        if (episodeIds.isEmpty()) return;
        List<String> ids = List.copyOf(episodeIds);
        writer.submit(s -> {
            PreparedStatement p = s.prepare(LINK);
            for (String id : ids) {
                p.setString(1, runId);
                p.setString(2, id);
                p.addBatch();
            }
            p.executeBatch();
        }, true);
    }

    void saveEpisode(String runId, EpisodeResult r) {
        String trajectory = r.trajectory() == null ? null : r.trajectory().toJson();
        String goldTools = Json.write(r.gold().tools());
        String now = Instant.now().toString();
        Derived derived = Derived.of(r);
        writer.submit(s -> {
            s.update(SAVE_EPISODE, p -> {
                bindEpisode(p, r, goldTools, trajectory, now);
                derived.bind(p, 27);
            });
            s.update(LINK, p -> {
                p.setString(1, runId);
                p.setString(2, r.id());
            });
            s.update(REFRESH_LINKS, p -> {
                p.setString(1, r.id());
                p.setString(2, r.id());
            });
        }, false);
    }

    /** Binds an episode's columns in the order of {@link #EPISODE_COLUMNS}. */
    private static void bindEpisode(PreparedStatement p, EpisodeResult r, String goldTools, String trajectory, String now) throws java.sql.SQLException {
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
        p.setString(i++, text(r.outcome().detail()));
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
    }

    /**
     * Free text as stored: PostgreSQL's text cannot hold the NUL character (an endpoint's error text
     * might), so it becomes U+FFFD in either engine; JSON columns escape it already.
     */
    static String text(String s) {
        return s == null || s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
    }
}
