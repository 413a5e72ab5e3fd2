package dev.openagent.run;

import dev.openagent.results.EpisodeResult;
import dev.openagent.results.EpisodeKey;
import dev.openagent.registry.Catalog;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.agent.openai.RetryPolicy;
import dev.openagent.agent.openai.ToolProtocol;
import dev.openagent.fake.ScriptedModel;
import dev.openagent.metrics.Scorecard;
import dev.openagent.sandbox.Split;
import dev.openagent.store.LocalPostgres;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import dev.openagent.store.StoreLocation;
import dev.openagent.store.StoreMerge;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sharded evaluation: the partition, shards writing one PostgreSQL run at once, and merging shard stores. */
@Timeout(600) // a guard against a hang only (a loaded 2-core machine is slow)
class ShardedEvalTest {
    static final int TASKS = 16;

    @TempDir
    Path dir;

    static Experiment experiment() {
        return new Experiment("sharded", List.of(AgentSpec.of("openai")), List.of("poi"), List.of("obs.format:format=xml"), TASKS, 2, 5L,
                "test", 0, 4, null);
    }

    static ScriptedModel model() throws IOException {
        return new ScriptedModel(List.of("poi"), "obs.format:format=xml", new TaskPlan(Split.TEST, TASKS, 5L, 0), 0, false);
    }

    static EvalRunner.RunResult run(StoreLocation store, ScriptedModel model, Shard shard) {
        RunControl control = RunControl.unlimited();
        try (ResultStore results = ResultStore.open(store)) {
            OpenAiConfig config = new OpenAiConfig(java.net.URI.create(model.baseUrl()), "scripted", null, ToolProtocol.NATIVE, null, null, null,
                    null, null, new RetryPolicy(0, Duration.ofMillis(1), Duration.ofMillis(2)), null);
            try (ChatEndpoint endpoint = new ChatEndpoint(config, results, true, control, ChatEndpoint.Sleeper.REAL)) {
                OpenAiAgent agent = new OpenAiAgent(endpoint);
                return new EvalRunner(new Catalog(), results, control, Progress.NONE).run(experiment(), List.of(new EvalAgent(config.label(), config.identity(),
                        agent::forTrial)), shard, null);
            }
        }
    }

    /** Each episode of a run with everything a report shows of it. */
    static Map<String, String> outcomes(StoreLocation store, String runId) {
        try (ResultStore results = ResultStore.open(store)) {
            return results.episodes(runId).stream().collect(Collectors.toMap(EpisodeResult::id,
                    e -> e.outcome() + " " + e.stats() + " " + e.trajectory().messages()));
        }
    }

    static String scorecard(StoreLocation store, String runId) {
        try (ResultStore results = ResultStore.open(store)) {
            return new Scorecard(results.episodes(runId)).toJson().toString();
        }
    }

    @Test
    void everyEpisodeFallsInExactlyOneShardAndStaysThere() {
        List<EpisodeKey> keys = new ArrayList<>();
        for (int i = 0; i < 3000; i++) keys.add(new EpisodeKey("cfg", "agent", i % 2 == 0 ? "poi" : "retail", "shift" + (i % 7), i * 7919L, i % 3));
        for (int n : new int[]{1, 2, 3, 7}) {
            int[] sizes = new int[n];
            for (EpisodeKey k : keys) {
                int owners = 0;
                for (int i = 0; i < n; i++) {
                    if (new Shard(i, n).contains(k)) {
                        owners++;
                        sizes[i]++;
                    }
                }
                assertEquals(1, owners, k + " in " + n + " shards");
            }
            for (int size : sizes) assertTrue(size > keys.size() / n * 0.8 && size < keys.size() / n * 1.2, "balanced: " + java.util.Arrays.toString(sizes));
        }
        // The assignment is part of the store's contract: a rerun by another version must find its shard's episodes.
        EpisodeKey pinned = new EpisodeKey("0123456789abcdef", "openai:m", "poi", "none", 42L, 0);
        assertEquals("4d93c2158cb26428a93d7dcb80b295ee", pinned.id());
        assertTrue(new Shard(1, 3).contains(pinned));
    }

    @Test
    void shardSpecsAndTheIndexedJobsVariableAreCheckedInOneLine() {
        assertEquals(new Shard(2, 3), Shard.parse("2/3"));
        assertEquals(new Shard(1, 4), Shard.of(null, 4, "1"));
        assertEquals(new Shard(0, 2), Shard.of("0/2", null, "1"), "--shard wins over JOB_COMPLETION_INDEX");
        assertEquals(Shard.ALL, Shard.of(null, null, null));
        assertEquals(Shard.ALL, Shard.of(null, 1, null));
        Map<String, Runnable> bad = Map.of(
                "shard '3/2': shard index 3 is out of range for 2 shard(s): indices run from 0 to 1", () -> Shard.parse("3/2"),
                "shard '0/0': the shard count must be at least 1 (got 0)", () -> Shard.parse("0/0"),
                "shard 'a/b' must be I/N with whole numbers: the 0-based index I of N shards, such as 0/3", () -> Shard.parse("a/b"),
                "shard '2' must be I/N: the 0-based index I of N shards, such as 0/3", () -> Shard.parse("2"),
                "--shard 1/3 and --shards 4 disagree on the shard count", () -> Shard.of("1/3", 4, null),
                "JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job) but not the shard count: give --shards N (the Job's completions)",
                () -> Shard.of(null, null, "2"),
                "JOB_COMPLETION_INDEX=5 with --shards 3: shard index 5 is out of range for 3 shard(s): indices run from 0 to 2",
                () -> Shard.of(null, 3, "5"),
                "--shards 3 needs this process's index: --shard I/3, or JOB_COMPLETION_INDEX (set by a Kubernetes Indexed Job)",
                () -> Shard.of(null, 3, null),
                "--shards must be at least 1 (got 0)", () -> Shard.of(null, 0, null));
        bad.forEach((message, call) -> assertEquals(message, assertThrows(IllegalArgumentException.class, call::run).getMessage()));
    }

    @Test
    void threeShardsWritingOnePostgresRunAtOnceEqualOneProcessAndMergedShardStoresEqualBoth() throws Exception {
        LocalPostgres pg = LocalPostgres.get();
        StoreLocation shared = pg.location(pg.createDatabase());
        StoreLocation single = new StoreLocation.SqliteFile(dir.resolve("single.db"));
        try (ScriptedModel m = model().delay(Duration.ofMillis(2))) {
            EvalRunner.RunResult whole = run(single, m, Shard.ALL);
            assertTrue(whole.complete(), whole.toString());

            List<EvalRunner.RunResult> parts = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                List<Future<EvalRunner.RunResult>> futures = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    Shard s = new Shard(i, 3);
                    futures.add(pool.submit(() -> run(shared, m, s)));
                }
                for (Future<EvalRunner.RunResult> f : futures) parts.add(f.get());
            }
            assertEquals(whole.planned(), parts.stream().mapToInt(EvalRunner.RunResult::planned).sum(), "the shards cover the plan");
            for (EvalRunner.RunResult p : parts) {
                assertTrue(p.complete(), p.toString());
                assertEquals(whole.runId(), p.runId(), "shards write the experiment's run");
                assertEquals(whole.planned(), p.runPlanned());
            }
            assertTrue(parts.stream().anyMatch(p -> p.status() == RunStatus.COMPLETE), "the last shard to finish completes the run");
            assertEquals(outcomes(single, whole.runId()), outcomes(shared, whole.runId()));
            assertEquals(scorecard(single, whole.runId()), scorecard(shared, whole.runId()));
            try (ResultStore s = ResultStore.open(shared)) {
                assertEquals(RunStatus.COMPLETE, s.run(whole.runId()).orElseThrow().status());
            }

            // Without --shard afterwards: every episode is reused and nothing asks the model.
            long requests = m.requests();
            EvalRunner.RunResult after = run(shared, m, Shard.ALL);
            assertEquals(whole.planned(), after.reused());
            assertEquals(0, after.ran());
            assertEquals(requests, m.requests());

            // The same shards into three SQLite files, merged: the same run again.
            List<StoreLocation> files = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                StoreLocation f = new StoreLocation.SqliteFile(dir.resolve("shard-" + i + ".db"));
                EvalRunner.RunResult r = run(f, m, new Shard(i, 3));
                assertEquals(RunStatus.PARTIAL, r.status(), "a shard alone leaves its run partial");
                files.add(f);
            }
            StoreLocation merged = new StoreLocation.SqliteFile(dir.resolve("merged.db"));
            StoreMerge.Result first;
            try (ResultStore into = ResultStore.open(merged)) {
                first = StoreMerge.merge(files, into);
            }
            assertEquals(whole.planned(), first.episodesAdded());
            assertTrue(first.conflicts().isEmpty() && first.runConflicts().isEmpty(), first.toString());
            assertEquals(RunStatus.COMPLETE, first.runs().getFirst().status());
            assertEquals(outcomes(shared, whole.runId()), outcomes(merged, whole.runId()));
            assertEquals(scorecard(shared, whole.runId()), scorecard(merged, whole.runId()));

            StoreMerge.Result again;
            try (ResultStore into = ResultStore.open(merged)) {
                again = StoreMerge.merge(files, into);
            }
            assertEquals(0, again.episodesAdded(), "merging twice changes nothing");
            assertEquals(0, again.responsesAdded());
            assertEquals(whole.planned(), again.episodesPresent());
            assertEquals(outcomes(shared, whole.runId()), outcomes(merged, whole.runId()));
        }
    }

    @Test
    void mergeReportsEpisodesTwoStoresFinishedDifferentlyAndKeepsTheTargets() throws Exception {
        StoreLocation a = new StoreLocation.SqliteFile(dir.resolve("a.db"));
        StoreLocation b = new StoreLocation.SqliteFile(dir.resolve("b.db"));
        String runId;
        try (ScriptedModel m = model()) {
            runId = run(a, m, Shard.ALL).runId();
            run(b, m, Shard.ALL);
        }
        Set<String> changed = new HashSet<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("b.db")); Statement s = c.createStatement()) {
            // As if b's model had sampled differently on two episodes.
            s.executeUpdate("UPDATE episodes SET success = 1 - success, detail = 'resampled' WHERE id IN (SELECT id FROM episodes ORDER BY id LIMIT 2)");
            try (var rs = s.executeQuery("SELECT id FROM episodes ORDER BY id LIMIT 2")) {
                while (rs.next()) changed.add(rs.getString(1));
            }
        }
        Map<String, String> before = outcomes(a, runId);
        StoreMerge.Result r;
        try (ResultStore into = ResultStore.open(a)) {
            r = StoreMerge.merge(List.of(b), into);
        }
        assertEquals(changed, r.conflicts().stream().map(StoreMerge.Conflict::episodeId).collect(Collectors.toSet()));
        assertTrue(r.conflicts().getFirst().other().contains("detail=resampled"), r.conflicts().toString());
        assertEquals(before, outcomes(a, runId), "the target's episodes are kept");
        assertFalse(r.conflicts().isEmpty());
    }
}
