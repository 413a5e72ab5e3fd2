package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.fake.ScriptedModel;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.Shard;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.store.LocalPostgres;
import dev.openagent.store.ResultStore;
import dev.openagent.store.StoreLocation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scale-out as a user runs it: {@code openagent eval --shard} processes writing one PostgreSQL
 * run (one killed with SIGKILL and rerun), {@code store merge} of SQLite shard stores, and reports.
 */
@Timeout(900) // a guard against a hang only: on a loaded 2-core machine the whole scenario has taken over 5 minutes
class ScaleOutTest {
    static final String SHIFTS = "obs.format:format=xml;tool.semantic-rename";
    static final int TASKS = 24;

    @TempDir
    Path dir;

    /** The experiment's flags against the scripted model; {@code --store} and the shard flags are added per process. */
    static List<String> eval(ScriptedModel model, int concurrency) {
        return new ArrayList<>(List.of("eval", "--agent", "openai", "--base-url", model.baseUrl(), "--model", "scripted", "--env", "poi",
                "--shift", SHIFTS, "--tasks", String.valueOf(TASKS), "--seed", "7", "--concurrency", String.valueOf(concurrency),
                "--no-progress", "--json"));
    }

    static List<String> with(List<String> base, String... more) {
        List<String> out = new ArrayList<>(base);
        out.addAll(List.of(more));
        return out;
    }

    /** {@code openagent ARGS} in a process of its own, as a pod would run it; output goes to files in {@code dir}. */
    Process start(String name, Map<String, String> env, List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(dir.resolve(name + ".out").toFile())
                .redirectError(dir.resolve(name + ".err").toFile());
        pb.environment().remove("JOB_COMPLETION_INDEX");
        pb.environment().putAll(env);
        return pb.start();
    }

    int finish(String name, Process p) throws Exception {
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), name + " did not finish");
        return p.exitValue();
    }

    JsonNode output(String name) throws IOException {
        return Json.parse(Files.readString(dir.resolve(name + ".out")));
    }

    static Map<String, String> outcomes(StoreLocation store, String runId) {
        try (ResultStore results = ResultStore.open(store)) {
            return results.episodes(runId).stream().collect(Collectors.toMap(EpisodeResult::id,
                    e -> e.outcome() + " " + e.stats() + " " + e.trajectory().messages()));
        }
    }

    /** A report's summary.json (two reports of the same episodes write the same one). */
    static JsonNode reportSummary(Path out) throws IOException {
        return Json.parse(Files.readString(out.resolve("summary.json")));
    }

    @Test
    void threeShardProcessesOneKilledAndRerunEqualOneProcessAndMergedSqliteShardsEqualBoth() throws Exception {
        LocalPostgres pg = LocalPostgres.get();
        String db = pg.createDatabase();
        String url = pg.url(LocalPostgres.SHARDER, db);
        Map<String, String> password = Map.of("PGPASSWORD", LocalPostgres.PASSWORD);
        Path singleStore = dir.resolve("single.db");
        try (ScriptedModel model = new ScriptedModel(List.of("poi"), SHIFTS, new TaskPlan(Split.TEST, TASKS, 7L, 0), 0, false)) {
            // One process, the reference.
            CliTest.Result single = CliTest.run(with(eval(model, 8), "--store", singleStore.toString()).toArray(String[]::new));
            assertEquals(0, single.code(), single.err());
            String runId = single.json().path("run").asText();
            int planned = single.json().path("planned").asInt();
            assertEquals(TASKS * 3, planned);

            // Three shard processes, as an Indexed Job runs them: two take their index from JOB_COMPLETION_INDEX.
            // Shard 1 starts first and is killed (SIGKILL, as kill -9) midway: the model answers 40 of its requests
            // (a few episodes committed, many more to run) and holds the next, so shard 1 is waiting on it when killed.
            List<String> sharded = with(eval(model, 2), "--store", url);
            Shard one = new Shard(1, 3);
            model.holdAfter(40);
            Process s1 = start("s1", password, with(sharded, "--shard", "1/3"));
            assertTrue(model.awaitHeld(Duration.ofSeconds(300)), "shard 1 reached the held request: " + Files.readString(dir.resolve("s1.err")));
            assertTrue(s1.isAlive(), "shard 1 was still running when killed: " + Files.readString(dir.resolve("s1.err")));
            s1.destroyForcibly();
            assertTrue(s1.waitFor(30, TimeUnit.SECONDS));
            assertEquals(137, s1.exitValue(), "killed by SIGKILL");
            model.release();
            Process s0 = start("s0", Map.of("PGPASSWORD", LocalPostgres.PASSWORD, "JOB_COMPLETION_INDEX", "0"), with(sharded, "--shards", "3"));
            Process s2 = start("s2", Map.of("PGPASSWORD", LocalPostgres.PASSWORD, "JOB_COMPLETION_INDEX", "2"), with(sharded, "--shards", "3"));
            assertEquals(0, finish("s0", s0), Files.readString(dir.resolve("s0.err")));
            assertEquals(0, finish("s2", s2), Files.readString(dir.resolve("s2.err")));
            int lost = committed(pg, db, one);
            assertTrue(lost > 0, "shard 1 committed episodes before it was killed");
            JsonNode a = output("s0");
            assertEquals("0/3", a.path("shard").asText());
            assertEquals(runId, a.path("run").asText(), "the shards write the experiment's run");
            assertTrue(a.path("run_progress").path("scored").asInt() < planned, a.toString());

            // While shard 1 is missing, the report over PostgreSQL says the results are partial.
            Path partial = dir.resolve("partial");
            int scoredSoFar = committed(pg, db, Shard.ALL);
            CliTest.Result p = CliTest.run("report", "--store", pg.url(LocalPostgres.TRUSTED, db), "--run", runId, "--out", partial.toString());
            assertEquals(0, p.code(), p.err());
            assertTrue(p.out().contains("partial: " + scoredSoFar + " of " + planned + " planned episodes scored so far"), p.out());
            assertTrue(reportSummary(partial).path("partial").asBoolean());
            assertTrue(Files.readString(partial.resolve("report.md")).contains("**Partial results:**"));

            // Shard 1 alone again: it runs only what it lost.
            long requests = model.requests();
            Process again = start("s1-again", password, with(sharded, "--shard", "1/3"));
            assertEquals(0, finish("s1-again", again), Files.readString(dir.resolve("s1-again.err")));
            JsonNode r = output("s1-again");
            assertEquals(lost, r.path("reused").asInt(), "the episodes committed before the kill are reused");
            assertEquals(r.path("planned").asInt() - lost, r.path("ran").asInt());
            assertTrue(r.path("ran").asInt() > 0, "shard 1 was killed midway: " + r);
            assertEquals("complete", r.path("status").asText());
            assertTrue(model.requests() > requests);

            // Without --shard afterwards: nothing runs, and the summary is the whole run's.
            CliTest.Result whole = CliTest.run(with(eval(model, 8), "--store", pg.url(LocalPostgres.TRUSTED, db)).toArray(String[]::new));
            assertEquals(0, whole.code(), whole.err());
            assertEquals(planned, whole.json().path("reused").asInt());
            assertEquals(0, whole.json().path("ran").asInt());
            assertEquals(comparable(single.json()), comparable(whole.json()));

            // The final report equals the single process's, episode for episode.
            StoreLocation shared = pg.location(db);
            assertEquals(outcomes(new StoreLocation.SqliteFile(singleStore), runId), outcomes(shared, runId));
            Path pgReport = dir.resolve("pg-report");
            Path singleReport = dir.resolve("single-report");
            assertEquals(0, CliTest.run("report", "--store", pg.url(LocalPostgres.TRUSTED, db), "--run", runId, "--out", pgReport.toString()).code());
            assertEquals(0, CliTest.run("report", "--store", singleStore.toString(), "--run", runId, "--out", singleReport.toString()).code());
            assertEquals(reportSummary(singleReport), reportSummary(pgReport));
            assertFalse(reportSummary(pgReport).path("partial").asBoolean());

            // Three SQLite shard stores, merged: the same report as the PostgreSQL run.
            List<String> files = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String f = dir.resolve("shard-" + i + ".db").toString();
                CliTest.Result s = CliTest.run(with(eval(model, 8), "--store", f, "--shard", i + "/3").toArray(String[]::new));
                assertEquals(0, s.code(), s.err());
                files.add(f);
            }
            Path merged = dir.resolve("merged.db");
            CliTest.Result m = CliTest.run(with(with(List.of("store", "merge"), files.toArray(String[]::new)), "--into", merged.toString())
                    .toArray(String[]::new));
            assertEquals(0, m.code(), m.err());
            assertTrue(m.out().contains(planned + " episode(s) added, 0 already there"), m.out());
            assertTrue(m.out().contains("run " + runId + ": complete"), m.out());
            CliTest.Result m2 = CliTest.run(with(with(List.of("store", "merge"), files.toArray(String[]::new)), "--into", merged.toString())
                    .toArray(String[]::new));
            assertEquals(0, m2.code(), m2.err());
            assertTrue(m2.out().contains("0 episode(s) added, " + planned + " already there"), m2.out());
            Path mergedReport = dir.resolve("merged-report");
            assertEquals(0, CliTest.run("report", "--store", merged.toString(), "--run", runId, "--out", mergedReport.toString()).code());
            assertEquals(reportSummary(pgReport), reportSummary(mergedReport));
            assertEquals(outcomes(shared, runId), outcomes(new StoreLocation.SqliteFile(merged), runId));
        }
    }

    /** Episodes of the shard committed to the database so far. */
    static int committed(LocalPostgres pg, String db, Shard shard) throws Exception {
        try (Connection c = pg.connect(db); Statement s = c.createStatement()) {
            ResultSet rs;
            try {
                rs = s.executeQuery("SELECT id FROM episodes WHERE end_reason <> 'INFRA_ERROR'");
            } catch (java.sql.SQLException notYetCreated) {
                return 0;
            }
            int n = 0;
            while (rs.next()) if (shard.contains(rs.getString(1))) n++;
            return n;
        }
    }

    /** An eval summary without what depends on how it was run. */
    static JsonNode comparable(JsonNode summary) {
        ObjectNode o = summary.deepCopy();
        for (String k : List.of("store", "reused", "ran", "spent_now", "shard", "planned")) o.remove(k);
        return o;
    }
}
