package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.store.CurvePoint;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunInfo;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** train, policy:DIR in run and eval, export, bench-policy, as a user runs them. */
class TrainCommandsTest {
    @TempDir
    Path dir;

    @Test
    void aTrainedCheckpointRunsAsAnAgentInRunAndEval() {
        Path policy = dir.resolve("sft");
        Path store = dir.resolve("runs.db");
        CliTest.Result t = CliTest.run("train", "--method", "sft", "--steps", "3", "--eval", "8", "--out", policy.toString(), "--store", store.toString(), "--json");
        assertEquals(0, t.code(), t.err());
        JsonNode info = Json.parse(t.out());
        assertEquals("sft", info.path("method").asText());
        assertEquals(8, info.path("static_test").path("episodes").asInt());
        assertTrue(Files.isRegularFile(policy.resolve("weights.bin")) && Files.isRegularFile(policy.resolve("config.json")));
        // --store: a run of kind train with the loss at every step (3 steps: every step is a point) and the static test's success
        try (ResultStore s = ResultStore.openExisting(store)) {
            RunInfo run = s.run(info.path("run").asText()).orElseThrow();
            assertEquals("train", Json.parse(run.config()).path("kind").asText());
            assertEquals(RunStatus.COMPLETE, run.status());
            List<CurvePoint> points = s.curve(run.id());
            JsonNode e = info.path("static_test");
            assertEquals(new CurvePoint("static", 3, "success", e.path("success_rate").asDouble(), e.path("ci_low").asDouble(), e.path("ci_high").asDouble()),
                    points.getFirst());
            List<CurvePoint> loss = points.subList(1, points.size());
            assertEquals(List.of(1L, 2L, 3L), loss.stream().map(CurvePoint::x).toList(), points.toString());
            assertTrue(loss.stream().allMatch(p -> p.series().equals("train") && p.metric().equals("loss") && p.value() > 0 && p.lo() == null), points.toString());
            assertEquals(info.path("final_loss").asDouble(), loss.getLast().value(), 1e-4, "the last point is the loss the run ended with");
        }
        CliTest.Result plain = CliTest.run("train", "--method", "sft", "--steps", "1", "--eval", "0", "--out", dir.resolve("plain").toString(), "--store",
                store.toString());
        assertEquals(0, plain.code(), plain.err());
        assertTrue(plain.out().contains("stored as run train-"), plain.out());

        CliTest.Result r = CliTest.run("run", "--agent", "policy:" + policy, "--tasks", "4", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(4, Json.parse(r.out()).path("episodes").asInt());
        assertEquals("policy:sft", Json.parse(r.out()).path("agent").asText());

        CliTest.Result e = CliTest.run("eval", "--agent", "policy:" + policy, "--tasks", "3", "--store", dir.resolve("runs.db").toString(),
                "--no-progress", "--json");
        assertEquals(0, e.code(), e.err());
        assertEquals(3, Json.parse(e.out()).path("episodes").asInt());
    }

    /** The paper study's SFT phase from the command line: its task pool, and how older turns are read, reach the checkpoint. */
    @Test
    void taskPoolAndOlderTurnsReachTheCheckpoint() throws Exception {
        Path policy = dir.resolve("pooled");
        CliTest.Result t = CliTest.run("train", "--method", "sft", "--steps", "2", "--eval", "0", "--task-pool", "5", "--older-turns", "actions",
                "--out", policy.toString(), "--json");
        assertEquals(0, t.code(), t.err());
        assertEquals(5, Json.parse(t.out()).path("task_pool").asInt());
        JsonNode config = Json.parse(Files.readString(policy.resolve("config.json")));
        assertTrue(config.path("older_turns_actions_only").asBoolean(), config.toString());
        assertTrue(config.path("word_extremes").asBoolean(), "a new policy marks ids by the extremes reported beside them");

        CliTest.Result bad = CliTest.run("train", "--method", "sft", "--steps", "2", "--older-turns", "some", "--out", dir.resolve("x").toString());
        assertTrue(bad.code() != 0 && bad.err().contains("--older-turns must be full or actions"), bad.err());
    }

    /** A study with --json: the numbers alone on standard output, the table for the person watching on standard error. */
    @Test
    void aStudyPrintsJsonOnStdoutAndTheTableOnStderr() {
        Path out = dir.resolve("transfer");
        CliTest.Result r = CliTest.run("study", "transfer", "--quick", "--envs", "poi,medical", "--steps", "3", "--eval", "2",
                "--out", out.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode matrix = Json.parse(r.out()).path("matrix");
        for (String train : new String[]{"poi", "medical"}) {
            for (String test : new String[]{"poi", "medical"}) assertTrue(matrix.path(train).path(test).isNumber(), train + " -> " + test);
        }
        assertTrue(r.err().contains("trained on"), r.err());
        // Not a terminal (a test, like CI): plain progress lines over the whole study, the last at 100%.
        assertTrue(r.err().contains("progress: 100% of the study, ETA 0s"), r.err());
        assertTrue(r.err().lines().noneMatch(l -> l.contains("\r")), "no bar redraws off a terminal");
        assertTrue(r.err().contains(out.resolve("study.html").toString()), r.err());
        assertTrue(Files.isRegularFile(out.resolve("results.json")) && Files.isRegularFile(out.resolve("report.html")));
    }

    @Test
    void exportWritesValidatedLines() throws Exception {
        Path out = dir.resolve("data.jsonl");
        CliTest.Result r = CliTest.run("export", "--format", "sharegpt", "--alpha", "0.5", "--n", "12", "--out", out.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = Json.parse(r.out());
        assertEquals(12, o.path("examples").asInt());
        assertTrue(o.path("shifted").asInt() > 0, "alpha 0.5 draws shifts from the catalog");
        assertEquals(12, Files.readAllLines(out).size());
    }

    @Test
    void benchPolicyReportsEveryMode() {
        CliTest.Result r = CliTest.run("bench-policy", "--episodes", "16", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode runs = Json.parse(r.out()).path("runs");
        int cores = Runtime.getRuntime().availableProcessors();
        assertEquals(cores > 1 ? 3 : 2, runs.size(), r.out());
        assertTrue(runs.get(0).path("mode").asText().startsWith("batched"));
        assertTrue(runs.get(runs.size() - 1).path("mode").asText().startsWith("one episode"));
        // The same episodes, whichever way they are scheduled.
        if (cores > 1) assertEquals(runs.get(0).path("actions").asLong(), runs.get(1).path("actions").asLong());
        assertTrue(runs.get(0).path("actions").asLong() > 0);
    }

    @Test
    void badInputGetsOneLineErrors() {
        CliTest.Result m = CliTest.run("train", "--method", "dpo", "--out", dir.resolve("x").toString());
        assertEquals(2, m.code());
        assertTrue(m.err().contains("unknown method 'dpo'"), m.err());
        CliTest.Result p = CliTest.run("run", "--agent", "policy:" + dir.resolve("nothing"), "--tasks", "1");
        assertEquals(2, p.code());
        assertTrue(p.err().contains("not a policy checkpoint"), p.err());
        CliTest.Result f = CliTest.run("export", "--format", "alpaca", "--n", "1", "--out", dir.resolve("y").toString());
        assertEquals(2, f.code());
        assertTrue(f.err().contains("unknown format"), f.err());
        CliTest.Result a = CliTest.run("train", "--method", "paft", "--alpha", "1.5", "--out", dir.resolve("z").toString());
        assertEquals(2, a.code());
        assertTrue(a.err().lines().count() <= 2, a.err());
    }
}
