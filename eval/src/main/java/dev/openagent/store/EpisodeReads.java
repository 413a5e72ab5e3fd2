package dev.openagent.store;

import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reading a run's episodes from the results store: their outcomes, pages of them by a filter and counts, facets, the
 * static twin of an episode, summaries and whole episodes. Writing them is {@link Runs}'.
 *
 * @param listed whether the run's links carry the listing columns ({@link StoreSchema#LISTING_COLUMNS}: schema 2); a
 *               store of schema 1 opened read-only has only the links, and its listings join the episodes
 */
record EpisodeReads(StoreReader reader, boolean listed) {
    /** How many of a run's episodes are stored, finished (not infrastructure errors) and scored (not unscored sessions either). */
    RunProgress progress(String runId) {
        return reader.read(c -> {
            try (PreparedStatement p = c.prepareStatement("""
                    SELECT count(*), coalesce(sum(CASE WHEN e.end_reason <> 'INFRA_ERROR' THEN 1 ELSE 0 END), 0),
                      coalesce(sum(CASE WHEN e.end_reason NOT IN ('INFRA_ERROR', 'UNSCORED') THEN 1 ELSE 0 END), 0)
                    """ + runEpisodes())) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return new RunProgress(rs.getInt(1), rs.getInt(2), rs.getInt(3));
                }
            }
        });
    }

    /** The outcome of each of a run's episodes by episode id, read without their trajectories. */
    Map<String, Outcome> outcomes(String runId) {
        return reader.read(c -> {
            Map<String, Outcome> out = new HashMap<>();
            try (PreparedStatement p = c.prepareStatement("""
                    SELECT e.id, e.success, e.end_reason, e.detail FROM run_episodes r JOIN episodes e ON e.id = r.episode_id
                    WHERE r.run_id = ?""")) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) out.put(rs.getString(1), new Outcome(rs.getInt(2) == 1, Outcome.End.valueOf(rs.getString(3)), rs.getString(4)));
                }
            }
            return out;
        });
    }

    /**
     * A run's episodes as {@code e}, with the columns a listing reads. In schema 2 these are the run's links, which carry
     * them ({@link StoreSchema#LISTING_COLUMNS}), read from the index {@code run_episodes_listing} alone. In schema 1 the
     * links are joined to the episodes' index {@code episodes_listing}: {@code e.agent >= ''} always holds, and makes
     * SQLite's planner look the episode up in that index (id and agent) instead of the primary key's, which leads to the row.
     */
    private String runEpisodes() {
        return listed ? " FROM run_episodes e WHERE e.run_id = ?"
                : " FROM run_episodes r JOIN episodes e ON e.id = r.episode_id AND e.agent >= '' WHERE r.run_id = ?";
    }

    /** The episode's id in {@link #runEpisodes()}. */
    private String episodeId() {
        return listed ? "e.episode_id" : "e.id";
    }

    private static final String PLAN_ORDER = " ORDER BY e.task_index, e.trial, e.agent, e.env, e.shift";
    /** Rows read at a time when a store of schema 1 filters by the failure category, which it reads from each trajectory. */
    private static final int SCAN_BATCH = 500;

    /**
     * The ids of the run's episodes that pass the filter, in plan order, {@code limit} of them from {@code offset}, and
     * how many pass it. Two queries: one with a window count ({@code count(*) OVER ()}) was slower on 100,000 episodes,
     * since it keeps every row for the sort instead of the page's (docs/view.md).
     */
    EpisodePage episodePage(String runId, EpisodeFilter filter, int offset, int limit) {
        if (filter.failure() != null && !listed) return scan(runId, filter, offset, limit);
        return new EpisodePage(episodeIds(runId, filter, offset, limit), count(runId, filter));
    }

    /** As {@link #episodePage} without the count. */
    List<String> episodeIds(String runId, EpisodeFilter filter, int offset, int limit) {
        if (filter.failure() != null && !listed) return scan(runId, filter, offset, limit).ids();
        EpisodeFilter.Sql f = filter.sql();
        return reader.read(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT " + episodeId() + runEpisodes() + f.where() + PLAN_ORDER + " LIMIT ? OFFSET ?")) {
                int i = bind(p, runId, f);
                p.setInt(i++, limit);
                p.setInt(i, offset);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /** How many of the run's episodes pass the filter. */
    int count(String runId, EpisodeFilter filter) {
        if (filter.failure() != null && !listed) return scan(runId, filter, 0, 0).total();
        EpisodeFilter.Sql f = filter.sql();
        return reader.read(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT count(*)" + runEpisodes() + f.where())) {
                bind(p, runId, f);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /**
     * A failure category filter over a store of schema 1, which does not hold the category: the episodes the other
     * filters select (narrowed in SQL to successes or failures, as the category implies) are read a batch at a time and
     * classified from their trajectories.
     */
    private EpisodePage scan(String runId, EpisodeFilter filter, int offset, int limit) {
        Failure failure = filter.failure();
        EpisodeFilter.Result implied = switch (failure) {
            case SUCCESS -> EpisodeFilter.Result.SUCCESS;
            case INFRA_ERROR, UNSCORED -> null;
            default -> EpisodeFilter.Result.FAILURE;
        };
        EpisodeFilter sql = new EpisodeFilter(filter.agent(), filter.env(), filter.tier(), filter.shift(),
                filter.outcome() == null ? implied : filter.outcome(), null);
        List<String> page = new ArrayList<>();
        int total = 0;
        for (int from = 0; ; from += SCAN_BATCH) {
            List<String> ids = episodeIds(runId, sql, from, SCAN_BATCH);
            for (EpisodeResult e : episodes(ids)) {
                if (Taxonomy.classify(e) != failure) continue;
                if (total >= offset && page.size() < limit) page.add(e.id());
                total++;
            }
            if (ids.size() < SCAN_BATCH) break;
        }
        return new EpisodePage(page, total);
    }

    private static int bind(PreparedStatement p, String runId, EpisodeFilter.Sql f) throws java.sql.SQLException {
        int i = 1;
        p.setString(i++, runId);
        for (String v : f.params()) p.setString(i++, v);
        return i;
    }

    RunFacets facets(String runId) {
        List<java.util.SortedSet<String>> columns = List.of(new java.util.TreeSet<>(), new java.util.TreeSet<>(), new java.util.TreeSet<>(), new java.util.TreeSet<>());
        reader.read(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT DISTINCT e.agent, e.env, e.tier, e.shift" + runEpisodes())) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) for (int i = 0; i < 4; i++) columns.get(i).add(rs.getString(i + 1));
                }
            }
            return null;
        });
        return new RunFacets(List.copyOf(columns.get(0)), List.copyOf(columns.get(1)), List.copyOf(columns.get(2)), List.copyOf(columns.get(3)));
    }

    /** How many episodes are linked to the run (read from the links alone: cheap). */
    int linked(String runId) {
        return reader.read(c -> {
            try (PreparedStatement p = c.prepareStatement("SELECT count(*) FROM run_episodes WHERE run_id = ?")) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    return rs.getInt(1);
                }
            }
        });
    }

    /** The static episode of the same configuration, agent, environment, task and trial, when the store holds one. */
    Optional<String> staticTwin(EpisodeKey key) {
        return reader.read(c -> {
            try (PreparedStatement p = c.prepareStatement("""
                    SELECT id FROM episodes WHERE config_hash = ? AND agent = ? AND env = ? AND task_seed = ? AND trial = ? AND shift = 'none'""")) {
                p.setString(1, key.configHash());
                p.setString(2, key.agent());
                p.setString(3, key.env());
                p.setLong(4, key.taskSeed());
                p.setInt(5, key.trial());
                try (ResultSet rs = p.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
                }
            }
        });
    }

    /** The columns {@link #episode} reads, from {@code episodes e}. */
    private static final String EPISODE_ROW = """
            SELECT e.config_hash, e.agent, e.env, e.shift, e.task_seed, e.trial, e.tier, e.task_index, e.success, e.end_reason,
                   e.detail, e.trajectory, e.gold_calls, e.gold_tools, e.duration_ms""";

    List<EpisodeResult> episodes(String runId) {
        return reader.read(c -> {
            List<EpisodeResult> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(EPISODE_ROW + """

                    FROM run_episodes r JOIN episodes e ON e.id = r.episode_id
                    WHERE r.run_id = ?""" + PLAN_ORDER)) {
                p.setString(1, runId);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) out.add(episode(rs));
                }
            }
            return out;
        });
    }

    /**
     * A run's episodes for its scorecard, in plan order, without reading the trajectories (docs/view.md): each carries a
     * summary in place of its trajectory (task, outcome with the attack's, turns, tool calls and errors, tokens; no
     * messages, tools or shift records), and its failure category as stored. A store of schema 1, which does not hold the category, reads the
     * episodes whole.
     */
    EpisodeSummaries summaries(String runId) {
        if (!listed) return classified(episodes(runId));
        return reader.read(c -> {
            Summaries out = new Summaries();
            try (PreparedStatement p = c.prepareStatement(SUMMARY + " FROM run_episodes r JOIN episodes e ON e.id = r.episode_id WHERE r.run_id = ?"
                    + PLAN_ORDER)) {
                p.setString(1, runId);
                out.add(p);
            }
            return out.done();
        });
    }

    /** As {@link #summaries(String)}, of these episodes in the order given (ids the store does not hold are left out). */
    EpisodeSummaries summaries(List<String> ids) {
        if (!listed) return classified(episodes(ids));
        return reader.read(c -> {
            Summaries out = new Summaries();
            try (PreparedStatement p = c.prepareStatement(SUMMARY + " FROM episodes e WHERE e.id = ?")) {
                for (String id : ids) {
                    p.setString(1, id);
                    out.add(p);
                }
            }
            return out.done();
        });
    }

    /** Whole episodes with their failure categories classified here (a store of schema 1 holds none). */
    private static EpisodeSummaries classified(List<EpisodeResult> whole) {
        Map<String, Failure> failures = new HashMap<>();
        for (EpisodeResult e : whole) failures.put(e.id(), Taxonomy.classify(e));
        return new EpisodeSummaries(whole, failures);
    }

    /** The columns {@link Summaries#add} reads, from {@code episodes e}. */
    private static final String SUMMARY = """
            SELECT e.config_hash, e.agent, e.env, e.shift, e.task_seed, e.trial, e.tier, e.task_index, e.success, e.end_reason,
                   e.detail, e.task_id, e.gold_calls, e.gold_tools, e.duration_ms, e.kind, e.difficulty, e.solvable, e.turns,
                   e.tool_calls, e.tool_errors, e.prompt_tokens, e.completion_tokens, e.failure, e.attacked""";

    /** Episode summaries as read, and their failure categories. */
    private static final class Summaries {
        final List<EpisodeResult> episodes = new ArrayList<>();
        final Map<String, Failure> failures = new HashMap<>();
        /** The same few tool lists over and over: each parsed once. */
        final Map<String, List<String>> goldTools = new HashMap<>();

        /** Adds the rows of this query of {@link #SUMMARY}. */
        void add(PreparedStatement p) throws java.sql.SQLException {
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    EpisodeKey key = new EpisodeKey(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5), rs.getInt(6));
                    int attackedColumn = rs.getInt(25);
                    Boolean attacked = rs.wasNull() ? null : attackedColumn == 1;
                    Outcome outcome = new Outcome(rs.getInt(9) == 1, Outcome.End.valueOf(rs.getString(10)), rs.getString(11), attacked);
                    String taskId = rs.getString(12);
                    // an episode that could not start has no trajectory, and no task id
                    Trajectory summary = taskId == null ? null : new Trajectory(key.env(), taskId, null, key.taskSeed(), rs.getInt(17),
                            rs.getString(16), rs.getInt(18) == 1, List.of(), key.agent(), List.of(), List.of(), outcome,
                            new dev.openagent.episode.Stats(rs.getInt(19), rs.getInt(20), rs.getInt(21), Map.of(), rs.getLong(22), rs.getLong(23)));
                    List<String> gold = goldTools.computeIfAbsent(rs.getString(14), g -> List.of(Json.read(g, String[].class)));
                    EpisodeResult e = new EpisodeResult(key, rs.getString(7), rs.getInt(8), outcome, summary, new GoldFacts(rs.getInt(13), gold),
                            rs.getLong(15));
                    episodes.add(e);
                    String failure = rs.getString(24);
                    if (failure != null) failures.put(e.id(), Failure.valueOf(failure.toUpperCase(java.util.Locale.ROOT)));
                }
            }
        }

        EpisodeSummaries done() {
            return new EpisodeSummaries(episodes, failures);
        }
    }

    /** These episodes, in the order given (ids the store does not hold are left out). */
    List<EpisodeResult> episodes(List<String> ids) {
        return reader.read(c -> {
            List<EpisodeResult> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement(EPISODE_ROW + " FROM episodes e WHERE e.id = ?")) {
                for (String id : ids) {
                    p.setString(1, id);
                    try (ResultSet rs = p.executeQuery()) {
                        if (rs.next()) out.add(episode(rs));
                    }
                }
            }
            return out;
        });
    }

    private static EpisodeResult episode(ResultSet rs) throws java.sql.SQLException {
        EpisodeKey key = new EpisodeKey(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getLong(5), rs.getInt(6));
        Outcome outcome = new Outcome(rs.getInt(9) == 1, Outcome.End.valueOf(rs.getString(10)), rs.getString(11));
        String tj = rs.getString(12);
        Trajectory t = tj == null ? null : Trajectory.fromJson(tj);
        List<String> gold = List.of(Json.read(rs.getString(14), String[].class));
        return new EpisodeResult(key, rs.getString(7), rs.getInt(8), outcome, t, new GoldFacts(rs.getInt(13), gold), rs.getLong(15));
    }
}
