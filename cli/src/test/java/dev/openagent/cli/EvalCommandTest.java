package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

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

    private static CliTest.Result cli(String... args) {
        return CliTest.run(args);
    }

    @Test
    void evalAgainstALocalEndpointThenRerunReusesEveryEpisodeAndReportsIt() throws Exception {
        String store = dir.resolve("runs/openagent.db").toString();
        try (BenchEndpoint endpoint = new BenchEndpoint(3)) {
            String[] args = {"eval", "--agent", "openai", "--base-url", endpoint.baseUrl(), "--model", "m", "--env", "poi", "--shift", "all",
                    "--tasks", "12", "--json", "--store", store, "--no-progress"};
            CliTest.Result first = cli(args);
            assertEquals(0, first.code(), first.err());
            JsonNode s = first.json();
            for (String k : new String[]{"episodes", "errors", "success_rate", "by_shift", "run", "complete"}) assertTrue(s.has(k), k + " in " + s);
            // eval always adds the static condition (Δ needs it) to the applicable shifts of the spec.
            // Pinned, not computed by the code under test: the 43 shifts of the catalog, of which all but
            // interface.action-list (text commands only) apply to poi, and the static condition.
            int conditions = 43;
            assertEquals(12 * conditions, s.path("episodes").asInt());
            assertEquals(0, s.path("errors").asInt());
            assertTrue(s.path("by_shift").has("none"));
            for (String k : new String[]{"episodes", "success_rate", "refusal_rate", "tier"}) assertTrue(s.path("by_shift").path("none").has(k), k);
            long requests = endpoint.requests();
            assertTrue(requests >= 12 * conditions, "at least one request per episode: " + requests);
            assertEquals(requests, s.path("spent_now").path("model_requests").asLong(), "what this invocation sent");
            assertTrue(s.path("model_requests").asLong() >= requests, "the run's requests, cached replies included");

            CliTest.Result again = cli(args);
            assertEquals(0, again.code(), again.err());
            assertEquals(12 * conditions, again.json().path("reused").asInt());
            assertEquals(0, again.json().path("ran").asInt());
            assertEquals(requests, endpoint.requests(), "a rerun asks the model nothing");
            assertEquals(0, again.json().path("spent_now").path("model_requests").asLong());
            assertEquals(s.path("model_tokens"), again.json().path("model_tokens"), "the run's tokens, whoever paid for them");
            assertEquals(s.path("by_shift"), again.json().path("by_shift"));
        }
        CliTest.Result list = cli("report", "--store", store, "--list");
        assertEquals(0, list.code(), list.err());
        assertTrue(list.out().contains("complete"), list.out());
        Path out = dir.resolve("report");
        CliTest.Result report = cli("report", "--store", store, "--out", out.toString());
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
        CliTest.Result r = cli("eval", "--config", file.toString(), "--tasks", "5", "--store", dir.resolve("x.db").toString(), "--json", "--no-progress");
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
        CliTest.Result noUrl = cli("eval", "--agent", "openai", "--model", "m", "--store", store);
        assertEquals(2, noUrl.code());
        assertTrue(noUrl.err().contains("--base-url"), noUrl.err());
        CliTest.Result unknown = cli("eval", "--agent", "gpt", "--store", store);
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("unknown agent 'gpt'"), unknown.err());
        CliTest.Result badShift = cli("eval", "--agent", "oracle", "--shift", "tier:nonsense", "--store", store);
        assertEquals(2, badShift.code());
        assertTrue(badShift.err().contains("unknown tier"), badShift.err());
        CliTest.Result noKey = cli("eval", "--agent", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--api-key-env", "OPENAGENT_TEST_NO_SUCH_VAR", "--store", store);
        assertEquals(2, noKey.code());
        assertTrue(noKey.err().contains("OPENAGENT_TEST_NO_SUCH_VAR"), noKey.err());
        Path typo = dir.resolve("typo.yaml");
        Files.writeString(typo, "agents: [{kind: oracle}]\ntask: 5\n");
        CliTest.Result badFile = cli("eval", "--config", typo.toString(), "--store", store);
        assertEquals(2, badFile.code());
        assertTrue(badFile.err().contains("unknown key 'task'"), badFile.err());
        CliTest.Result missing = cli("report", "--store", dir.resolve("none.db").toString(), "--out", dir.toString());
        assertEquals(2, missing.code());
        assertTrue(missing.err().contains("no results store"), missing.err());
        for (CliTest.Result x : new CliTest.Result[]{noUrl, unknown, badShift, noKey, badFile, missing}) {
            assertFalse(x.err().contains("\tat "), "no stack trace: " + x.err());
        }
    }

    /** An experiment file that is not one is one plain line, never the YAML library's text or a Java class name. */
    @Test
    void experimentFilesThatAreNotOneSaySoInOneLine() throws Exception {
        String store = dir.resolve("y.db").toString();
        String[][] cases = {
                {"- kind: oracle\n- kind: random\n", "must be a mapping of settings (name:, agents:, envs:, shifts:, ...), not a list"},
                {"agents: [{kind: oracle}]\ntasks: many\n", "'tasks' must be a whole number"},
                {"agents: [{kind: oracle, temperature: hot}]\n", "'agents[0].temperature' must be a number"},
                {"agents: [{kind: oracle}]\ntasks: 0\n", "tasks must be at least 1"},
                {"agents: [{kind: oracle}\ntasks: 3\n", "is not valid YAML"},
                {"agents: [{kind: oracle}]\nshifts: [\"obs.format:\"]\n", "shifts: 'obs.format:': no parameters after ':' in 'obs.format:'"},
                {"", "is empty"}};
        for (String[] c : cases) {
            Path file = dir.resolve("exp.yaml");
            Files.writeString(file, c[0]);
            CliTest.assertBad(cli("eval", "--config", file.toString(), "--store", store), c[1]);
        }
        Path binary = dir.resolve("exp.bin");
        Files.write(binary, new byte[]{0x50, 0x4B, 0x03, 0x04, 0x00, (byte) 0xC3, 0x28});
        CliTest.assertBad(cli("eval", "--config", binary.toString(), "--store", store), "is not a text file");
        assertFalse(Files.exists(Path.of(store)), "nothing ran");
    }

    @Test
    void anUnreachableEndpointEndsAsInfrastructureErrorsNamedByTheirCauseAndExitCode3() {
        String[] args = {"eval", "--agent", "openai", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--retries", "0", "--tasks", "3",
                "--store", dir.resolve("z.db").toString(), "--no-progress"};
        CliTest.Result r = cli(append(args, "--json"));
        assertEquals(EvalCommand.INCOMPLETE, r.code(), r.err());
        assertEquals(3, r.json().path("errors").asInt());
        assertEquals(3, r.json().path("failures").path("infra_error").asInt());
        assertTrue(r.json().path("success_rate").isNull(), "nothing was scored");
        String cause = "model request failed after 1 attempt(s): connection refused by 127.0.0.1:9";
        assertEquals(3, r.json().path("error_causes").path(cause).asInt(), r.out());
        CliTest.Result text = cli(args);
        assertEquals(EvalCommand.INCOMPLETE, text.code(), text.err());
        assertTrue(text.out().contains("3 infrastructure errors\n  3 x " + cause + "\n"), text.out());
    }

    /** A server answering 503 and one that never answers: the summary names the status and the timeout. */
    @Test
    void httpStatusesAndTimeoutsAreNamed() throws Exception {
        try (FakeModel unavailable = new FakeModel(503, false); FakeModel silent = new FakeModel(200, true)) {
            for (var c : java.util.Map.of(unavailable, "HTTP 503", silent, "no response within 2000 ms").entrySet()) {
                CliTest.Result r = cli("eval", "--agent", "openai", "--base-url", c.getKey().baseUrl(), "--model", "m", "--retries", "0",
                        "--timeout", "2", "--tasks", "2", "--store", dir.resolve("s" + c.getKey().status + ".db").toString(), "--no-progress");
                assertEquals(EvalCommand.INCOMPLETE, r.code(), r.err());
                assertTrue(r.out().contains("2 x model request failed after 1 attempt(s): " + c.getValue()), r.out());
            }
        }
    }

    /** The docs promise a resumed run the numbers of an uninterrupted one: the run's requests and tokens, cached replies included. */
    @Test
    void aResumedRunReportsTheRequestsAndTokensOfAnUninterruptedOne() throws Exception {
        try (BenchEndpoint endpoint = new BenchEndpoint(3)) {
            String[] args = {"eval", "--agent", "openai", "--base-url", endpoint.baseUrl(), "--model", "m", "--tasks", "6", "--shift", "obs.format",
                    "--concurrency", "2", "--json", "--no-progress"};
            JsonNode whole = cli(append(args, "--store", dir.resolve("whole.db").toString())).json();
            assertTrue(whole.path("complete").asBoolean(), whole.toString());
            String store = dir.resolve("cut.db").toString();
            CliTest.Result cut = cli(append(append(args, "--store", store), "--max-requests", "10"));
            assertEquals(EvalCommand.INCOMPLETE, cut.code(), cut.err());
            JsonNode resumed = cli(append(args, "--store", store)).json();
            assertTrue(resumed.path("complete").asBoolean() && resumed.path("reused").asInt() > 0, resumed.toString());
            assertTrue(whole.path("model_tokens").asLong() > 0);
            assertEquals(whole.path("model_tokens"), resumed.path("model_tokens"));
            assertEquals(whole.path("model_requests"), resumed.path("model_requests"));
            assertTrue(resumed.path("spent_now").path("model_tokens").asLong() < whole.path("model_tokens").asLong(),
                    "this invocation spent only what was left: " + resumed.path("spent_now"));
        }
    }

    private static String[] append(String[] args, String... more) {
        String[] out = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, out, args.length, more.length);
        return out;
    }

    /** An endpoint that answers every request with one status, or ({@code silent}) never answers until it is closed. */
    private static final class FakeModel implements AutoCloseable {
        final int status;
        private final com.sun.net.httpserver.HttpServer server;
        private final java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);

        FakeModel(int status, boolean silent) throws java.io.IOException {
            this.status = status;
            server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 16);
            server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
            server.createContext("/", ex -> {
                try (ex) {
                    ex.getRequestBody().readAllBytes();
                    if (silent) closed.await();
                    byte[] body = "{\"error\":{\"message\":\"busy\"}}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
                    ex.sendResponseHeaders(status, body.length);
                    ex.getResponseBody().write(body);
                } catch (InterruptedException | java.io.IOException e) {
                    // the client gave up
                }
            });
            server.start();
        }

        String baseUrl() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"; }

        @Override
        public void close() {
            closed.countDown();
            server.stop(0);
        }
    }

    @Test
    void harnessBenchmarkRunsAndReportsTurnsPerSecond() {
        CliTest.Result r = cli("bench-harness", "--episodes", "20", "--warmup", "0", "--concurrency", "4", "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(200, r.json().path("turns").asInt());
        assertTrue(r.json().path("turns_per_second").asDouble() > 0);
    }
}
