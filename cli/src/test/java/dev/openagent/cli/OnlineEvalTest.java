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
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code eval --adapt online} from the command line: the plumbing (its flags, the run's directory, resuming, bad input),
 * on two tiny groups; that the curve rises is {@code OnlineAdaptationTest}'s.
 */
class OnlineEvalTest {
    @TempDir
    Path dir;

    private static CliTest.Result online(String... args) {
        List<String> all = new ArrayList<>(List.of("eval", "--agent", "policy:" + TinyPolicy.checkpoint(), "--adapt", "online"));
        all.addAll(List.of(args));
        return CliTest.run(all.toArray(String[]::new));
    }

    @Test
    void aStreamWritesItsCurveAndACheckpointPerGroupAndResumesWhenRunAgain() throws Exception {
        Path out = dir.resolve("run");
        Path store = dir.resolve("runs.db");
        String[] args = {"--shift", "query.noise", "--difficulty", "1", "--groups", "2", "--group-size", "4", "--out", out.toString(),
                "--store", store.toString(), "--json"};
        CliTest.Result r = online(args);
        assertEquals(0, r.code(), r.err());
        JsonNode o = r.json();
        assertEquals(2, o.path("curve").size(), o.toString());
        assertEquals(8, o.path("curve").get(1).path("episodes").asInt());
        assertEquals(0, o.path("resumed_after").asInt());
        assertTrue(r.err().contains("progress: group 2/2: success"), r.err());
        List<String> csv = Files.readAllLines(out.resolve("curve.csv"));
        assertEquals("series,x,metric,value,lo,hi", csv.getFirst());
        assertTrue(csv.stream().anyMatch(l -> l.startsWith("policy:" + TinyPolicy.checkpoint() + " under query.noise,2,success,")), csv.toString());
        for (int g = 1; g <= 2; g++) assertTrue(Files.isRegularFile(out.resolve("checkpoints/group-000" + g + "/weights.bin")));
        byte[] curve = Files.readAllBytes(out.resolve("curve.json"));

        // The same command again finds every group done: nothing runs, the curve is the same.
        CliTest.Result again = online(args);
        assertEquals(0, again.code(), again.err());
        assertEquals(2, again.json().path("resumed_after").asInt());
        assertArrayEquals(curve, Files.readAllBytes(out.resolve("curve.json")));

        // The store holds the stream as one run of kind online, its success per group as in curve.json, once.
        try (ResultStore results = ResultStore.openExisting(store)) {
            assertEquals(1, results.runs().size(), results.runs().toString());
            RunInfo run = results.runs().getFirst();
            assertEquals("online", Json.parse(run.config()).path("kind").asText(), run.config());
            assertEquals(RunStatus.COMPLETE, run.status());
            List<CurvePoint> success = results.curve(run.id()).stream().filter(p -> p.metric().equals("success")).toList();
            assertEquals(List.of(1L, 2L), success.stream().map(CurvePoint::x).toList(), success.toString());
            for (CurvePoint p : success) {
                assertEquals(o.path("curve").get((int) p.x() - 1).path("success").asDouble(), p.value(), 1e-9, p.toString());
                assertTrue(p.lo() != null && p.lo() <= p.value() && p.value() <= p.hi(), p.toString());
            }
        }
    }

    @Test
    void badInputIsOneLineAndExitCodeTwo() {
        String policy = "policy:" + TinyPolicy.checkpoint();
        List<List<String>> bad = List.of(
                List.of("eval", "--agent", "oracle", "--adapt", "online"),
                List.of("eval", "--agent", policy + ",oracle", "--adapt", "online"),
                List.of("eval", "--agent", policy, "--adapt", "offline"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--group-size", "1"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--group-size", "8", "--attempts", "3"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--groups", "0"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--adapt-lr", "0"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--shift", "tier:interaction"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--env", "poi,medical"),
                List.of("eval", "--agent", policy, "--adapt", "online", "--tasks", "5"),
                List.of("eval", "--agent", "policy:" + TinyPolicy.checkpoint().resolveSibling("nothing-here"), "--adapt", "online"),
                List.of("eval", "--agent", policy, "--groups", "3"));
        for (List<String> args : bad) {
            CliTest.Result r = CliTest.run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), args + ": " + r.err());
            assertTrue(r.err().startsWith("openagent: "), args + ": " + r.err());
        }
    }
}
