package dev.openagent.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency the proxy adds per call: the same read of a file through {@link ProxySession} (the shift layers,
 * the mapping back, the result reformatted) and straight to the upstream, in alternating blocks on one upstream
 * process, so machine load hits both alike. The MCP transport between the agent and the proxy is not included:
 * this is the proxy's own time. A benchmark: run with
 * {@code ./mvnw -pl proxy -am test -Dexcluded.groups=none -Dtest=ProxyLatencyBench -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class ProxyLatencyBench {
    private static final int BLOCKS = 20;
    private static final int PER_BLOCK = 50;
    private static final String SPEC = "tool.identity-erasure+obs.format:format=xml";

    /** The twenty-line file both sides read, in {@code dir}. */
    private static Path projectFile(Path dir) throws IOException {
        Path file = dir.resolve("project.txt");
        Files.writeString(file, "Deadline: 2026-12-04\n".repeat(20));
        return file;
    }

    @Test
    void addedLatencyPerCall(@TempDir Path dir) throws Exception {
        ProxyServerTest.requireServer();
        Path file = projectFile(dir);
        try (Upstream upstream = new Upstream(List.of(ProxyServerTest.FILESYSTEM.toString(), dir.toString()), null, Duration.ofSeconds(30),
                dir.resolveSibling(dir.getFileName() + "-bench.log"))) {
            ProxySession session = new ProxySession(upstream, ShiftSpec.parseStack(SPEC), 1);
            ToolSpec read = session.tools().stream().filter(t -> t.description().contains("as text")).findFirst().orElseThrow();
            String param = read.parameters().path("required").get(0).asText();
            Map<String, Object> shown = Map.of(param, file.toString());
            ObjectNode direct = Json.object().put("path", file.toString());
            String real = session.call(read.name(), shown).error() ? null : session.calls().getLast().upstream().tool();
            assertTrue(real != null, "the warm-up call failed");
            List<Long> viaProxy = new ArrayList<>();
            List<Long> straight = new ArrayList<>();
            for (int b = 0; b < BLOCKS; b++) {
                for (int i = 0; i < PER_BLOCK; i++) {
                    long t0 = System.nanoTime();
                    assertFalse(upstream.call(real, direct).error());
                    long t1 = System.nanoTime();
                    assertFalse(session.call(read.name(), shown).error());
                    long t2 = System.nanoTime();
                    straight.add(t1 - t0);
                    viaProxy.add(t2 - t1);
                }
            }
            List<Long> proxyOwn = new ArrayList<>();
            for (int i = 0; i < viaProxy.size(); i++) proxyOwn.add(viaProxy.get(i) - straight.get(i));
            System.out.printf("proxy latency (%s, %d calls each, alternating, shared machine):%n", SPEC, viaProxy.size());
            System.out.printf("  upstream directly   p50 %.3f ms  p99 %.3f ms%n", ms(straight, 50), ms(straight, 99));
            System.out.printf("  through the proxy   p50 %.3f ms  p99 %.3f ms%n", ms(viaProxy, 50), ms(viaProxy, 99));
            System.out.printf("  difference per pair p50 %.3f ms  p99 %.3f ms%n", ms(proxyOwn, 50), ms(proxyOwn, 99));
        }
    }

    /**
     * End to end over the wire: an MCP client (the Java SDK's) calling the filesystem server directly over stdio,
     * against the same client calling through the proxy over Streamable HTTP (the proxy's own upstream process
     * behind it), alternating. Includes the HTTP hop on loopback and the second JSON round trip.
     */
    @Test
    void addedLatencyOverTheWire(@TempDir Path dir) throws Exception {
        ProxyServerTest.requireServer();
        Path file = projectFile(dir);
        List<String> cmd = List.of(ProxyServerTest.FILESYSTEM.toString(), dir.toString());
        try (dev.openagent.byo.McpConnection direct = dev.openagent.byo.McpConnection.open(cmd, null, Map.of(), Duration.ofSeconds(30),
                dir.resolveSibling(dir.getFileName() + "-direct.log"));
             Upstream upstream = new Upstream(cmd, null, Duration.ofSeconds(30), dir.resolveSibling(dir.getFileName() + "-wire.log"));
             SessionPool pool = new SessionPool(upstream, ShiftSpec.parseStack(SPEC), 1, 1, Duration.ofMinutes(10), null);
             ProxyServer server = ProxyServer.http(pool, "127.0.0.1", 0, dev.openagent.server.http.BearerAuth.NONE, 1 << 20)) {
            io.modelcontextprotocol.client.McpSyncClient client = ProxyServerTest.client(server.url());
            try {
                io.modelcontextprotocol.spec.McpSchema.Tool read = client.listTools().tools().stream()
                        .filter(t -> t.description() != null && t.description().contains("as text")).findFirst().orElseThrow();
                @SuppressWarnings("unchecked")
                String param = ((List<String>) read.inputSchema().get("required")).getFirst();
                io.modelcontextprotocol.spec.McpSchema.CallToolRequest shown = new io.modelcontextprotocol.spec.McpSchema.CallToolRequest(read.name(), Map.of(param, file.toString()));
                ObjectNode straightArgs = Json.object().put("path", file.toString());
                String real = client.callTool(shown).isError() == Boolean.TRUE ? null : pool.sessions().getFirst().calls().getLast().upstream().tool();
                assertTrue(real != null, "the warm-up call failed");
                List<Long> viaProxy = new ArrayList<>();
                List<Long> straight = new ArrayList<>();
                for (int i = 0; i < BLOCKS * PER_BLOCK; i++) {
                    long t0 = System.nanoTime();
                    assertFalse(direct.call(real, straightArgs).error());
                    long t1 = System.nanoTime();
                    assertFalse(Boolean.TRUE.equals(client.callTool(shown).isError()));
                    long t2 = System.nanoTime();
                    straight.add(t1 - t0);
                    viaProxy.add(t2 - t1);
                }
                System.out.printf("end to end (%s, %d calls each, alternating; direct over stdio, proxied over HTTP then stdio):%n", SPEC, viaProxy.size());
                System.out.printf("  client -> upstream           p50 %.3f ms  p99 %.3f ms%n", ms(straight, 50), ms(straight, 99));
                System.out.printf("  client -> proxy -> upstream  p50 %.3f ms  p99 %.3f ms%n", ms(viaProxy, 50), ms(viaProxy, 99));
            } finally {
                client.close();
            }
        }
    }

    private static double ms(List<Long> nanos, int percentile) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        int i = Math.min(sorted.size() - 1, (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1);
        return sorted.get(Math.max(0, i)) / 1e6;
    }
}
