package dev.openagent.proxy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.byo.McpConnection;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the proxy never widens, measured (docs/proxy.md): path-traversal calls to the official filesystem server, made
 * directly and through the proxy under several shift stacks, reach exactly as far: each call the server refuses
 * directly is refused through the proxy too, no call through the proxy reads the secret outside the allowed folder,
 * and no write lands outside it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PathTraversalThroughTheProxyTest {
    @TempDir
    Path root;

    private static final String SECRET = "secret-7f3a";

    /** A call by the upstream's tool name, and whether it touched what lies outside the allowed folder. */
    private record Probe(String tool, Map<String, Object> args) {}

    private record Reach(boolean refused, boolean secretSeen) {}

    @Test
    void everyTraversalReachesNoFurtherThroughTheProxy() throws Exception {
        ProxyServerTest.requireServer();
        Path allowed = Files.createDirectories(root.resolve("allowed"));
        Files.writeString(allowed.resolve("ok.txt"), "fine");
        Files.writeString(root.resolve("secret.txt"), SECRET);
        Files.createDirectories(root.resolve("outside-dir"));
        Files.writeString(root.resolve("outside-dir/inner.txt"), SECRET);
        Files.createSymbolicLink(allowed.resolve("link.txt"), root.resolve("secret.txt"));
        Files.createSymbolicLink(allowed.resolve("linkdir"), root.resolve("outside-dir"));
        String a = allowed.toString();
        List<String> paths = List.of(a + "/../secret.txt", root.resolve("secret.txt").toString(), "../secret.txt", a + "/./../secret.txt",
                a + "/sub/../../secret.txt", a + "%2F..%2Fsecret.txt", a + "/link.txt", a + "/linkdir/inner.txt", a + "/linkdir",
                a + "/../outside-dir", "/etc/hostname", "/", "~/secret.txt", a + "\u0000/../../secret.txt", a + "/ok.txt");
        List<Probe> probes = new ArrayList<>();
        for (String p : paths) {
            probes.add(new Probe("read_text_file", Map.of("path", p)));
            probes.add(new Probe("list_directory", Map.of("path", p)));
            probes.add(new Probe("get_file_info", Map.of("path", p)));
        }
        probes.add(new Probe("search_files", Map.of("path", a + "/..", "pattern", "secret")));
        probes.add(new Probe("write_file", Map.of("path", a + "/../written.txt", "content", "x")));
        probes.add(new Probe("write_file", Map.of("path", a + "/linkdir/written.txt", "content", "x")));
        probes.add(new Probe("move_file", Map.of("source", a + "/ok.txt", "destination", a + "/../moved.txt")));

        Map<Probe, Reach> direct = new LinkedHashMap<>();
        try (McpConnection c = McpConnection.open(List.of(ProxyServerTest.FILESYSTEM.toString(), a), null, Map.of(), Duration.ofSeconds(60),
                root.resolve("direct.log"))) {
            for (Probe p : probes) {
                McpConnection.Result r = c.call(p.tool(), (ObjectNode) Json.tree(p.args()));
                direct.put(p, new Reach(r.error(), r.text().contains(SECRET)));
            }
        }
        assertFalse(Files.exists(root.resolve("written.txt")) || Files.exists(root.resolve("outside-dir/written.txt")) || Files.exists(root.resolve("moved.txt")));

        int calls = 0;
        int refused = 0;
        for (String spec : List.of("none", "obs.format:format=xml", "tool.distractors", "obs.runtime-error", "tool.schema-noise:severity=1")) {
            try (Upstream upstream = new Upstream(List.of(ProxyServerTest.FILESYSTEM.toString(), a), null, Duration.ofSeconds(60), root.resolve("proxy.log"))) {
                ProxySession session = new ProxySession(upstream, spec.equals("none") ? dev.openagent.shift.ShiftStack.NONE : ShiftSpec.parseStack(spec), 3);
                for (Probe p : probes) {
                    Reach d = direct.get(p);
                    ProxySession.Reply r = callShown(session, p);
                    calls++;
                    if (r.error()) refused++;
                    assertFalse(r.text().contains(SECRET) && !d.secretSeen(), spec + ": " + p + " read the secret through the proxy only");
                    // A call the server refused directly is refused through the proxy (a shift may add failures, never remove one).
                    if (d.refused()) assertTrue(r.error(), spec + ": " + p + " was refused directly, not through the proxy: " + r.text());
                    // And every forwarded call reached the upstream with the path as the agent gave it.
                    ProxySession.Call last = session.calls().getLast();
                    if (last.upstream() != null) assertEquals(p.args(), Json.MAPPER.convertValue(last.upstream().args(), Map.class), spec + ": " + p);
                }
            }
            assertFalse(Files.exists(root.resolve("written.txt")) || Files.exists(root.resolve("outside-dir/written.txt")) || Files.exists(root.resolve("moved.txt")),
                    spec + ": a write landed outside the allowed folder");
        }
        long refusedDirectly = direct.values().stream().filter(Reach::refused).count();
        long secretDirectly = direct.values().stream().filter(Reach::secretSeen).count();
        System.out.println("path traversal: " + probes.size() + " calls directly (" + refusedDirectly + " refused, " + secretDirectly
                + " read the secret); " + calls + " through the proxy under 5 stacks (" + refused + " refused, 0 read the secret, 0 writes outside)");
        assertEquals(0, secretDirectly, "the server itself keeps the secret: " + direct);
    }

    /** Calls the probe's tool by its name (the stacks here keep tool and parameter names). */
    private static ProxySession.Reply callShown(ProxySession session, Probe p) {
        assertTrue(session.shows(p.tool()), p.tool() + " among " + session.tools().stream().map(ToolSpec::name).toList());
        return session.call(p.tool(), p.args());
    }
}
