package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.store.FrontierVerdicts;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code openagent frontier} as a user runs it, and its focus file read by {@code export} and {@code train}. */
class FrontierCommandTest {
    @TempDir
    Path dir;

    @Test
    void badInputIsOneLineAndExitTwo() {
        String store = dir.resolve("bad.db").toString();
        List<List<String>> cases = List.of(
                List.of("--agent", "nobody"),
                List.of("--agent", "gullible", "--shift", "query.nosie"),
                List.of("--agent", "gullible", "--budget", "0"),
                List.of("--agent", "gullible", "--budget", "-5"),
                List.of("--agent", "gullible", "--drop", "0"),
                List.of("--agent", "gullible", "--drop", "1.5"),
                List.of("--agent", "gullible", "--confidence", "1"),
                List.of("--agent", "gullible", "--env", "nowhere"));
        for (List<String> c : cases) {
            List<String> args = new java.util.ArrayList<>(List.of("frontier", "--store", store));
            args.addAll(c);
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), c + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), c + ": one line, got " + r.err());
            assertTrue(r.err().startsWith("openagent: "), r.err());
            assertTrue(r.out().isEmpty(), r.out());
        }
        assertFalse(Files.exists(dir.resolve("bad.db")), "bad input is refused before the store is opened");
    }

    /**
     * The gullible agent (it obeys injected instructions and calls tools by the names it was shown first) on the
     * security tier and two other shifts: the JSON shape, the files, the focus; rerun, the same frontier
     * from the store without running an episode.
     */
    @Test
    void aFrontierWritesItsJsonReportExamplesAndFocusAndResumesFromTheStore() throws Exception {
        Path store = dir.resolve("runs.db"), out = dir.resolve("out");
        String[] args = {"frontier", "--agent", "gullible", "--env", "poi", "--shift", "tier:security;obs.format;tool.distractors",
                "--budget", "600", "--max-tasks", "60", "--store", store.toString(), "--out", out.toString(), "--no-progress", "--json"};
        CliTest.Result r = CliTest.run(args);
        assertEquals(0, r.code(), r.err());
        JsonNode j = r.json();
        assertTrue(j.path("episodes_spent").asInt() > 0 && j.path("episodes_spent").asInt() <= 600, j.toString());
        assertTrue(j.path("complete").asBoolean());
        JsonNode frontier = j.path("frontier");
        assertEquals(4, frontier.size(), frontier.toString());
        for (JsonNode s : frontier) {
            assertTrue(s.has("shift") && s.has("breaking_severity") && s.has("drop") && s.has("episodes"), s.toString());
        }
        JsonNode injection = find(frontier, "obs.injection");
        assertEquals(1, injection.path("breaking_severity").asInt(), "the gullible agent obeys the mildest injection");
        assertEquals("breaks", injection.path("status").asText());
        JsonNode distractors = find(frontier, "tool.distractors");
        assertTrue(distractors.path("breaking_severity").isNull(), "distractors do not confuse an agent that replays its plan: " + distractors);
        assertEquals("holds", distractors.path("status").asText());
        assertEquals(3, distractors.path("tests").size());
        assertTrue(j.path("compositions").isArray());

        assertTrue(Files.readString(out.resolve("report.html")).contains("echarts.init"), "the chart");
        assertEquals(j.path("frontier"), Json.parse(Files.readString(out.resolve("frontier.json"))).path("frontier"));
        List<String> failures = Files.readAllLines(out.resolve("failures.jsonl"), StandardCharsets.UTF_8);
        assertFalse(failures.isEmpty(), "example failing trajectories");
        CliTest.Result shown = CliTest.run("show", out.resolve("failures.jsonl").toString());
        assertEquals(0, shown.code(), shown.err());
        JsonNode focus = Json.parse(Files.readString(out.resolve("focus.json")));
        assertTrue(focus.path("entries").toString().contains("obs.injection:severity=1"), focus.toString());
        JsonNode injected = null;
        for (JsonNode e : focus.path("entries")) if (e.path("shift").asText().equals("obs.injection:severity=1")) injected = e;
        assertNotNull(injected, focus.toString());
        assertEquals("[1,2,3]", injected.path("severities").toString(), "trained at the breaking severity and every stronger one");

        int episodes;
        FrontierVerdicts verdicts;
        try (ResultStore s = ResultStore.openExisting(store)) {
            episodes = s.episodes(j.path("run").asText()).size();
            verdicts = s.frontier(j.path("run").asText()).orElseThrow(() -> new AssertionError("the verdicts are in the store"));
        }
        assertVerdictsAre(j, verdicts);
        CliTest.Result again = CliTest.run(args);
        assertEquals(0, again.code(), again.err());
        assertEquals(without(j), without(again.json()));
        try (ResultStore s = ResultStore.openExisting(store)) {
            assertEquals(episodes, s.episodes(j.path("run").asText()).size(), "the rerun ran nothing new");
            assertEquals(1, s.runs().size(), "one run for the frontier");
            assertEquals(verdicts, s.frontier(j.path("run").asText()).orElseThrow(), "the rerun wrote the same verdicts again");
        }

        // export --focus: every shifted example is drawn from the focus.
        Path data = dir.resolve("focus.jsonl");
        CliTest.Result e = CliTest.run("export", "--format", "openai", "--alpha", "1", "--n", "6", "--focus", out.resolve("focus.json").toString(),
                "--out", data.toString(), "--json");
        assertEquals(0, e.code(), e.err());
        assertEquals(6, e.json().path("shifted").asInt());
        CliTest.Result noAlpha = CliTest.run("export", "--format", "openai", "--n", "6", "--focus", out.resolve("focus.json").toString(), "--out", data.toString());
        assertEquals(2, noAlpha.code());

        // train --method paft --focus: the focus's draws are what PAFT drew from.
        CliTest.Result t = CliTest.run("train", "--method", "paft", "--steps", "2", "--eval", "0", "--focus", out.resolve("focus.json").toString(),
                "--out", dir.resolve("focused").toString(), "--json");
        assertEquals(0, t.code(), t.err());
        JsonNode info = t.json();
        assertEquals("given", info.path("mix").asText());
        assertEquals(focus.path("entries").size(), info.path("shift_weights").size(), info.toString());
        assertTrue(info.path("shift_weights").has("obs.injection:severity=1|2|3"), "drawn at the breaking severity and every stronger one: "
                + info.path("shift_weights"));
    }

    @Test
    void aBadFocusFileIsOneLineAndExitTwo() throws Exception {
        Path f = dir.resolve("focus.json");
        Files.writeString(f, "{\"version\": 1, \"agent\": \"x\", \"drop\": 0.1, \"entries\": [{\"env\": \"poi\", \"shift\": \"query.nosie\", \"weight\": 1}]}");
        CliTest.Result e = CliTest.run("export", "--format", "openai", "--alpha", "0.5", "--n", "2", "--focus", f.toString(), "--out", dir.resolve("x.jsonl").toString());
        assertEquals(2, e.code());
        assertTrue(e.err().contains("entries[0]") && e.err().contains("unknown shift"), e.err());
        Files.writeString(f, "{\"version\": 1, \"entries\": [{\"env\": \"poi\", \"shift\": \"query.noise\", \"severities\": [5], \"weight\": 1}]}");
        CliTest.Result t = CliTest.run("train", "--method", "paft", "--steps", "2", "--focus", f.toString(), "--out", dir.resolve("y").toString());
        assertEquals(2, t.code());
        assertEquals(1, t.err().strip().lines().count(), t.err());
        CliTest.Result sft = CliTest.run("train", "--method", "sft", "--steps", "2", "--focus", f.toString(), "--out", dir.resolve("z").toString());
        assertEquals(2, sft.code());
    }

    /** The stored verdicts say what frontier.json says: each shift's frontier, and every test with its drop and interval. */
    static void assertVerdictsAre(JsonNode j, FrontierVerdicts v) {
        JsonNode frontier = j.path("frontier");
        assertEquals(frontier.size(), v.shifts().size());
        int tests = 0;
        for (int i = 0; i < frontier.size(); i++) {
            JsonNode f = frontier.get(i);
            FrontierVerdicts.Shift x = v.shifts().get(i);
            assertEquals(f.path("shift").asText(), x.shift());
            assertEquals(f.path("status").asText(), x.status());
            assertEquals(f.path("breaking_severity").isNull() ? null : f.path("breaking_severity").asInt(), x.breakingSeverity(), x.shift());
            List<FrontierVerdicts.Test> rungs = v.rungs(x);
            assertEquals(f.path("tests").size(), rungs.size(), x.shift());
            for (int k = 0; k < rungs.size(); k++) {
                JsonNode t = f.path("tests").get(k);
                FrontierVerdicts.Test r = rungs.get(k);
                assertEquals(t.path("condition").asText(), r.condition());
                assertEquals(t.path("level").asInt(), r.severity());
                assertEquals(t.path("verdict").asText(), r.verdict());
                assertEquals(t.path("episodes").asInt(), r.episodes());
                assertEquals(t.path("drop").asDouble(), r.drop(), 0.0005);
                assertEquals(t.path("drop_interval").get(0).asDouble(), r.low(), 0.0005);
                assertEquals(t.path("drop_interval").get(1).asDouble(), r.high(), 0.0005);
            }
            tests += rungs.size();
        }
        assertEquals(j.path("compositions").size(), v.compositions().size());
        for (int k = 0; k < v.compositions().size(); k++) {
            assertEquals(j.path("compositions").get(k).path("verdict").asText(), v.compositions().get(k).verdict());
        }
        assertEquals(tests + v.compositions().size(), v.tests().size());
        assertTrue(v.shifts().stream().anyMatch(x -> x.status().equals("breaks")) && v.shifts().stream().anyMatch(x -> x.status().equals("holds")),
                "both verdicts occur: " + v.shifts());
    }

    static JsonNode find(JsonNode frontier, String shift) {
        for (JsonNode s : frontier) if (s.path("shift").asText().equals(shift)) return s;
        throw new AssertionError("no " + shift + " in " + frontier);
    }

    static JsonNode without(JsonNode j) {
        ObjectNode o = j.deepCopy();
        o.remove(List.of("store", "out"));
        return o;
    }
}
