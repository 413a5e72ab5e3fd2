package dev.openagent.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import dev.openagent.proxy.ProxyServer;
import dev.openagent.proxy.SessionPool;
import dev.openagent.proxy.Upstream;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watch inside the proxy, on the official memory server: a baseline learnt over a window of calls, then the same
 * server reached through a shifting proxy (obs.runtime-error, as if the server had started failing), watched
 * against it: the event in the JSONL file, the metrics, a webhook that takes it and one that cannot be reached.
 */
class ProxyWatchTest {
    @TempDir
    Path dir;

    /** Log lines, as the proxy's stderr would carry them. */
    private static final class Log {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        List<String> lines() { return bytes.toString(StandardCharsets.UTF_8).lines().toList(); }
    }

    private static void drive(Upstream u, Matrix.Server server, long seed, int calls) {
        Random rnd = new Random(seed);
        for (int i = 0; i < calls; i++) {
            Matrix.Call c = server.traffic().apply(rnd);
            u.call(c.tool(), (ObjectNode) Json.tree(c.args()));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void learnsABaselineThenReportsAServerThatStartedFailing() throws Exception {
        Servers.requireToday();
        Matrix.Server memory = Matrix.servers(Servers.EXAMPLES, dir).get(1);
        List<String> received = new CopyOnWriteArrayList<>();
        HttpServer hook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        hook.createContext("/hook", ex -> {
            received.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ex.sendResponseHeaders(204, -1);
            ex.close();
        });
        hook.start();
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        try (Upstream real = new Upstream(memory.command(), null, Duration.ofSeconds(60), dir.resolve("memory.log"))) {
            // The baseline: 80 calls straight to the server.
            Path baseline = dir.resolve("baseline.json");
            Log learning = new Log();
            try (ProxyWatch w = ProxyWatch.recording(real, baseline, 80, learning.out)) {
                drive(real, memory, 1, 100);
            }
            assertEquals(1, learning.lines().size(), learning.lines().toString());
            assertTrue(learning.lines().getFirst().contains("baseline of 9 tools and 80 calls written"), learning.lines().toString());
            Snapshot learnt = Snapshot.read(baseline);
            assertEquals(80, learnt.traffic().path("calls").asInt());

            // The server behind a proxy that makes it fail now and then; two watches on it, one per webhook.
            for (String webhook : List.of("http://127.0.0.1:" + hook.getAddress().getPort() + "/hook", "http://127.0.0.1:" + closedPort + "/hook")) {
                Path events = dir.resolve("events-" + Math.abs(webhook.hashCode()) + ".jsonl");
                Log log = new Log();
                String metrics;
                try (SessionPool pool = new SessionPool(real, ShiftSpec.parseStack("obs.runtime-error:severity=3"), 7, 4, Duration.ofMinutes(5), null);
                     ProxyServer failing = ProxyServer.http(pool, "127.0.0.1", 0, BearerAuth.NONE, 1 << 20);
                     Upstream watched = new Upstream(null, failing.url(), Duration.ofSeconds(60), dir.resolve("watched.log"))) {
                    ProxyWatch w = ProxyWatch.watching(watched, learnt, events, URI.create(webhook), log.out);
                    drive(watched, memory, 2, 60);
                    w.close();   // reads every call, waits for the webhook's tries
                    metrics = w.scrape();
                }
                List<String> lines = Files.readAllLines(events);
                assertTrue(!lines.isEmpty(), "no event: " + log.lines());
                // The proxy in front lists no output schemas (it serves its own tool specs): exact surface events, then the failures.
                assertTrue(lines.stream().map(Json::parse).filter(e -> !e.path("kind").asText().equals("transient-errors"))
                        .allMatch(e -> e.path("kind").asText().equals("output-schema-changed") && e.path("confidence").asText().equals("exact")), lines.toString());
                JsonNode event = lines.stream().map(Json::parse).filter(e -> e.path("kind").asText().equals("transient-errors")).findFirst().orElseThrow(
                        () -> new AssertionError("no transient-errors event: " + lines));
                assertEquals("obs.runtime-error", event.path("shift").asText());
                assertEquals("interaction", event.path("tier").asText());
                assertEquals("sequential", event.path("confidence").asText());
                assertTrue(event.path("log_likelihood_ratio").asDouble() >= Math.log(1 / Watcher.ALPHA));
                assertTrue(metrics.contains("openagent_watch_events_total{kind=\"transient-errors\",shift=\"obs.runtime-error\",tier=\"interaction\"} 1.0"), metrics);
                assertTrue(metrics.contains("openagent_watch_calls_total{outcome=\"error\"}"), metrics);
                long undelivered = log.lines().stream().filter(l -> l.startsWith("watch: webhook ") && l.contains("did not take an event after 3 tries")).count();
                if (webhook.contains("/hook") && webhook.contains(String.valueOf(hook.getAddress().getPort()))) {
                    assertEquals(0, undelivered, log.lines().toString());
                    assertEquals(lines.size(), received.size());
                    assertTrue(received.stream().anyMatch(r -> Json.parse(r).path("shift").asText().equals("obs.runtime-error")), received.toString());
                } else {
                    assertEquals(1, undelivered, "one line for a webhook that is down: " + log.lines());
                    assertTrue(metrics.contains("openagent_watch_events_total"), metrics);
                }
            }
        } finally {
            hook.stop(0);
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aServerThatDiesMidWindowIsOneLineAndTheWindowGoesOn() throws Exception {
        Servers.requireToday();
        Matrix.Server memory = Matrix.servers(Servers.EXAMPLES, dir).get(1);
        Log log = new Log();
        Path baseline = dir.resolve("baseline.json");
        try (Upstream real = new Upstream(memory.command(), null, Duration.ofSeconds(60), dir.resolve("memory.log"));
             ProxyWatch w = ProxyWatch.recording(real, baseline, 30, log.out)) {
            drive(real, memory, 1, 10);
            // The server dies: our own child process, found by its pid.
            List<ProcessHandle> server = ProcessHandle.current().descendants().filter(p -> p.info().commandLine().orElse("").contains("mcp-server-memory")).toList();
            assertTrue(!server.isEmpty(), "the memory server's process");
            server.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle p : server) p.onExit().get(30, TimeUnit.SECONDS);
            assertThrows(InfrastructureException.class, () -> drive(real, memory, 2, 1));
            drive(real, memory, 3, 25);   // restarted on the next call
        }
        List<String> failed = log.lines().stream().filter(l -> l.startsWith("watch: the upstream failed during a call")).toList();
        assertEquals(1, failed.size(), log.lines().toString());
        assertTrue(log.lines().stream().anyMatch(l -> l.contains("baseline of 9 tools and 30 calls written")), log.lines().toString());
    }
}
