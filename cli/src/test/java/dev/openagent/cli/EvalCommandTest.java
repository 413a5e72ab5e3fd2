package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The eval, report and bench-harness commands as a user runs them. */
@Timeout(120)
class EvalCommandTest {
    @TempDir
    Path dir;

    record Result(int code, String out, String err) {
        JsonNode json() { return Json.parse(out); }
    }

    static synchronized Result cli(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.execute(args);
            return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void evalAgainstALocalEndpointThenRerunReusesEveryEpisodeAndReportsIt() throws Exception {
        String store = dir.resolve("runs/openagent.db").toString();
        try (BenchEndpoint endpoint = new BenchEndpoint(3)) {
            String[] args = {"eval", "--agent", "openai", "--base-url", endpoint.baseUrl(), "--model", "m", "--env", "poi", "--shift", "all",
                    "--tasks", "12", "--json", "--store", store, "--no-progress"};
            Result first = cli(args);
            assertEquals(0, first.code(), first.err());
            JsonNode s = first.json();
            for (String k : new String[]{"episodes", "errors", "success_rate", "by_shift", "run", "complete"}) assertTrue(s.has(k), k + " in " + s);
            // eval always adds the static condition (Δ needs it) to the applicable shifts of the spec.
            int conditions = 1 + dev.openagent.run.Conditions.of("all", dev.openagent.registry.Environments.get("poi"), false).stacks().size();
            assertTrue(conditions > 20, "all expands to the catalog plus the static condition: " + conditions);
            assertEquals(12 * conditions, s.path("episodes").asInt());
            assertEquals(0, s.path("errors").asInt());
            assertTrue(s.path("by_shift").has("none"));
            for (String k : new String[]{"episodes", "success_rate", "refusal_rate", "tier"}) assertTrue(s.path("by_shift").path("none").has(k), k);
            long requests = endpoint.requests();
            assertTrue(requests >= 12 * conditions, "at least one request per episode: " + requests);
            assertEquals(requests, s.path("model_requests").asLong());

            Result again = cli(args);
            assertEquals(0, again.code(), again.err());
            assertEquals(12 * conditions, again.json().path("reused").asInt());
            assertEquals(0, again.json().path("ran").asInt());
            assertEquals(requests, endpoint.requests(), "a rerun asks the model nothing");
            assertEquals(s.path("by_shift"), again.json().path("by_shift"));
        }
        Result list = cli("report", "--store", store, "--list");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("complete"), list.out());
        Path out = dir.resolve("report");
        Result report = cli("report", "--store", store, "--out", out.toString());
        assertEquals(0, report.code(), report.err());
        assertTrue(Files.readString(out.resolve("report.html")).contains("report-data"));
        assertTrue(Files.readString(out.resolve("report.md")).contains("## By agent and shift"));
    }

    @Test
    void anExperimentFileDescribesTheRunAndFlagsOverrideIt() throws Exception {
        Path file = dir.resolve("exp.yaml");
        Files.writeString(file, """
                name: oracle-vs-random
                agents:
                  - kind: oracle
                  - kind: random
                envs: [poi]
                shifts: none
                tasks: 30
                trials: 2
                seed: 4
                concurrency: 4
                """);
        Result r = cli("eval", "--config", file.toString(), "--tasks", "5", "--store", dir.resolve("x.db").toString(), "--json", "--no-progress");
        assertEquals(0, r.code(), r.err());
        JsonNode s = r.json();
        assertEquals(20, s.path("episodes").asInt(), "2 agents x 5 tasks (the flag wins) x 2 trials");
        assertEquals(1.0, s.path("by_agent").path("oracle").path("success_rate").asDouble());
        assertEquals(1.0, s.path("by_agent").path("oracle").path("pass_k").path("2").asDouble());
        assertTrue(s.path("by_agent").path("random").path("success_rate").asDouble() < 0.5);
    }

    @Test
    void badInputGetsAOneLineErrorNotAStackTrace() throws Exception {
        String store = dir.resolve("y.db").toString();
        Result noUrl = cli("eval", "--agent", "openai", "--model", "m", "--store", store);
        assertEquals(2, noUrl.code());
        assertTrue(noUrl.err().contains("--base-url"), noUrl.err());
        Result unknown = cli("eval", "--agent", "gpt", "--store", store);
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("unknown agent 'gpt'"), unknown.err());
        Result badShift = cli("eval", "--agent", "oracle", "--shift", "tier:nonsense", "--store", store);
        assertEquals(2, badShift.code());
        assertTrue(badShift.err().contains("unknown tier"), badShift.err());
        Result noKey = cli("eval", "--agent", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key-env", "OPENAGENT_TEST_NO_SUCH_VAR", "--store", store);
        assertEquals(2, noKey.code());
        assertTrue(noKey.err().contains("OPENAGENT_TEST_NO_SUCH_VAR"), noKey.err());
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, "agents: [{kind: oracle}]\ntask: 5\n");
        Result badFile = cli("eval", "--config", typo.toString(), "--store", store);
        assertEquals(2, badFile.code());
        assertTrue(badFile.err().contains("unknown key 'task'"), badFile.err());
        Result missing = cli("report", "--store", dir.resolve("none.db").toString(), "--out", dir.toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no results store"), missing.err());
        for (Result x : new Result[]{noUrl, unknown, badShift, noKey, badFile, missing}) {
            assertFalse(x.err().contains("\tat "), "no stack trace: " + x.err());
        }
    }

    @Test
    void anUnreachableEndpointEndsAsInfrastructureErrorsAndExitCode3() {
        Result r = cli("eval", "--agent", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--retries", "0", "--tasks", "3",
                "--store", dir.resolve("z.db").toString(), "--json", "--no-progress");
        assertEquals(EvalCommand.INCOMPLETE, r.code(), r.err());
        assertEquals(3, r.json().path("errors").asInt());
        assertEquals(3, r.json().path("failures").path("infra_error").asInt());
        assertTrue(r.json().path("success_rate").isNull(), "nothing was scored");
    }

    @Test
    void harnessBenchmarkRunsAndReportsTurnsPerSecond() {
        Result r = cli("bench-harness", "--episodes", "20", "--warmup", "0", "--concurrency", "4", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(200, r.json().path("turns").asInt());
        assertTrue(r.json().path("turns_per_second").asDouble() > 0);
    }
}
