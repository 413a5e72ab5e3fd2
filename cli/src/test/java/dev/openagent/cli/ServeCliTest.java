package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The serve commands' argument handling: bad input is one line on stderr and exit code 2. */
class ServeCliTest {
    static void refused(String expected, String... args) {
        CliTest.Result r = CliTest.run(args);
        assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.out() + r.err());
        assertTrue(r.err().contains(expected), String.join(" ", args) + " -> " + r.err());
        assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
    }

    @Test
    void badArgumentsAreRefusedClearly() {
        refused("--stdio", "serve", "mcp", "--env", "poi");
        refused("unknown environment 'nope'", "serve", "mcp", "--env", "nope", "--stdio");
        refused("mutually exclusive", "serve", "mcp", "--env", "poi", "--stdio", "--task", "1", "--seed", "2");
        refused("names several conditions", "serve", "mcp", "--env", "poi", "--shift", "all", "--stdio");
        refused("cannot be served", "serve", "model", "--policy", "oracle");
        refused("integer seed", "serve", "model", "--policy", "random:x");
        refused("no such directory", "serve", "model", "--policy", "./no/such/dir");
        refused("unset or empty", "serve", "env", "--port", "0", "--token-env", "OPENAGENT_TEST_NO_SUCH_VARIABLE");
        refused("--idle-ttl", "serve", "env", "--idle-ttl", "0");
        refused("loopback", "serve", "bench", "--url", "http://192.0.2.1:8765");
        refused("unknown environment 'nope'", "serve", "env", "--port", "0", "--env", "nope");
        refused("--protocol", "serve", "bench", "--protocol", "udp");
        refused("nothing to measure", "serve", "bench", "--protocol", "none");
    }

    @Test
    void benchReportsAsJson() {
        CliTest.Result r = CliTest.run("serve", "bench", "--sessions", "2", "--steps", "15", "--warmup-steps", "0", "--tasks", "8", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode reports = Json.parse(r.out());
        assertEquals(2, reports.size(), r.out());
        assertEquals("ws", reports.get(0).get("protocol").asText());
        assertEquals("http", reports.get(1).get("protocol").asText());
        for (JsonNode report : reports) {
            assertEquals(0, report.get("errors").asInt());
            assertEquals(30, report.get("steps").asInt());
            assertTrue(report.has("step_p99_us") && report.has("server_cpu_us_per_step"));
        }
    }

    @Test
    void benchMeasuresTheFloorAlone() {
        CliTest.Result r = CliTest.run("serve", "bench", "--protocol", "none", "--floor", "--sessions", "2", "--steps", "15",
                "--warmup-steps", "0", "--tasks", "8");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("over floor-in-process") && r.out().contains("over floor-canned-ws"), r.out());
        assertTrue(r.out().matches("(?s).*floor +[0-9.]+ us of CPU per step = .*whatever the server.*"), r.out());
    }
}
