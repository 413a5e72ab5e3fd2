package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** {@code openagent watch record} of the official memory server, and {@code watch diff} of it against itself and an edited copy. */
class WatchCommandTest {
    static final Path MEMORY = Path.of("..", "examples", "mcp-servers", "node_modules", ".bin", "mcp-server-memory").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void recordThenDiffExitsByDrift() throws Exception {
        boolean installed = Files.isExecutable(MEMORY);
        if ("true".equals(System.getenv("CI"))) assertTrue(installed, "CI needs the reference servers (.ci/run installs them)");
        assumeTrue(installed, "the MCP reference servers are not installed (npm ci --prefix examples/mcp-servers)");
        Path before = dir.resolve("before.json");
        CliTest.Result rec = CliTest.run("watch", "record", "--out", before.toString(), "--", MEMORY.toString());
        assertEquals(0, rec.code(), rec.err());
        assertTrue(rec.err().contains("9 tools"), rec.err());

        CliTest.Result same = CliTest.run("watch", "diff", before.toString(), before.toString());
        assertEquals(0, same.code(), same.out() + same.err());
        assertTrue(same.out().startsWith("no drift"), same.out());

        // The upgrade: delete_relations gone, open_nodes renamed by a typo.
        ObjectNode snapshot = (ObjectNode) Json.parse(Files.readString(before));
        ArrayNode tools = (ArrayNode) snapshot.path("tools");
        for (int i = tools.size() - 1; i >= 0; i--) {
            if (tools.get(i).path("name").asText().equals("delete_relations")) tools.remove(i);
            else if (tools.get(i).path("name").asText().equals("open_nodes")) ((ObjectNode) tools.get(i)).put("name", "open_ndoes");
        }
        Path after = dir.resolve("after.json");
        Files.writeString(after, Json.pretty(snapshot));
        CliTest.Result drift = CliTest.run("watch", "diff", before.toString(), after.toString(), "--json");
        assertEquals(1, drift.code(), drift.out() + drift.err());
        JsonNode changes = drift.json().path("changes");
        assertEquals(2, changes.size(), changes.toString());
        assertEquals("tool-removed", changes.get(0).path("kind").asText());
        assertEquals("delete_relations", changes.get(0).path("tool").asText());
        assertEquals("tool.removal", changes.get(0).path("shift").asText());
        assertEquals("internalization", changes.get(0).path("tier").asText());
        assertEquals("openagent eval --env ENV_FILE --shift 'tool.removal'", changes.get(0).path("reproduce").asText());
        assertEquals("tool-renamed-by-letters", changes.get(1).path("kind").asText());
        assertEquals("open_nodes", changes.get(1).path("tool").asText());
        assertEquals("tool.name-noise", changes.get(1).path("shift").asText());
        assertEquals("open_ndoes", changes.get(1).path("evidence").path("after").path("name").asText());

        // proxy mcp --watch against the edited baseline: the server it starts has delete_relations, and open_nodes under its own name.
        Path events = dir.resolve("events.jsonl");
        Path store = dir.resolve("runs.db");
        Process proxy = new ProcessBuilder(ProxyMcpCommandTest.proxyCommand("--shift", "none", "--watch", after.toString(), "--watch-events", events.toString(),
                "--store", store.toString(), "--stdio", "--", MEMORY.toString())).redirectError(dir.resolve("proxy.err").toFile()).start();
        try (var in = proxy.getOutputStream()) {
            in.write(String.join("\n",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", "").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        assertTrue(proxy.waitFor(60, TimeUnit.SECONDS), "the proxy did not stop when its stdin closed");
        String err = Files.readString(dir.resolve("proxy.err"));
        List<JsonNode> seen = Files.readAllLines(events).stream().map(Json::parse).toList();
        assertEquals(List.of("tool-added delete_relations tool.set-change", "tool-renamed-by-letters open_ndoes tool.name-noise"),
                seen.stream().map(e -> e.path("kind").asText() + " " + e.path("tool").asText() + " " + e.path("shift").asText()).sorted().toList(), err);
        assertTrue(err.contains("watch: tool-renamed-by-letters  open_ndoes: renamed to open_nodes  [perception, tool.name-noise"), err);
        // The session recorded in the store carries the events, so the report's trajectory browser shows them.
        Path report = dir.resolve("report");
        CliTest.Result shown = CliTest.run("report", "--store", store.toString(), "--out", report.toString());
        assertEquals(0, shown.code(), shown.err());
        String html = Files.readString(report.resolve("report.html"));
        assertTrue(html.contains("tool-renamed-by-letters") && html.contains("open_ndoes"), "the report shows no watch event");

        Files.writeString(dir.resolve("foreign.json"), "{\"tools\": []}");
        CliTest.Result foreign = CliTest.run("watch", "diff", dir.resolve("foreign.json").toString(), after.toString());
        assertEquals(2, foreign.code());
        assertEquals(1, foreign.err().strip().lines().count(), foreign.err());
        assertTrue(foreign.err().contains("not a watch snapshot"), foreign.err());
        ObjectNode badTraffic = (ObjectNode) Json.parse(Files.readString(before));
        badTraffic.set("traffic", Json.parse("{\"calls\": 1, \"tools\": {\"read_graph\": {\"formats\": {\"HTML\": 1}}}}"));
        Files.writeString(dir.resolve("bad-traffic.json"), Json.pretty(badTraffic));
        CliTest.Result traffic = CliTest.run("watch", "diff", dir.resolve("bad-traffic.json").toString(), after.toString());
        assertEquals(2, traffic.code());
        assertTrue(traffic.err().contains("is not what `proxy mcp --watch-record` writes") && traffic.err().strip().lines().count() == 1, traffic.err());
        Files.writeString(dir.resolve("cut.json"), Files.readString(before).substring(0, 200));
        CliTest.Result cut = CliTest.run("watch", "diff", dir.resolve("cut.json").toString(), after.toString());
        assertEquals(2, cut.code());
        assertTrue(cut.err().startsWith("openagent: ") && cut.err().contains("not JSON") && cut.err().strip().lines().count() == 1, cut.err());
    }
}
