package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** `--env FILE` in the commands a user runs first: shifts, validate, eval (with the openai agent) and its report, export. */
class BringYourOwnCliTest {
    static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();
    static final String FILES = EXAMPLES.resolve("filesystem/env.yaml").toString();

    @TempDir
    Path dir;

    @BeforeAll
    static void servers() {
        boolean installed = Files.isExecutable(EXAMPLES.resolve("mcp-servers/node_modules/.bin/mcp-server-filesystem"));
        if (System.getenv("CI") != null) assertTrue(installed, "CI=true but the MCP reference servers are not installed: .ci/run runs npm ci --prefix examples/mcp-servers");
        assumeTrue(installed, "the MCP reference servers are not installed (npm ci --prefix examples/mcp-servers)");
    }

    @Test
    void shiftsNamesTheFactAFileDoesNotDeclare() {
        CliTest.Result r = CliTest.run("shifts", "--env", FILES);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("not applicable to files: no tool declares 'record_of'"), r.out());
        assertTrue(r.out().contains("not applicable to files: no tool declares 'person_name'"), r.out());
    }

    @Test
    void aBadFileIsOneLineAndExitCodeTwo() throws Exception {
        Path env = dir.resolve("env.yaml");
        Files.writeString(env, "id: x\ntasks: t.jsonl\nmcp:\n  command: [no-such-mcp-server]\n");
        Files.writeString(dir.resolve("t.jsonl"), "{\"id\": \"a\", \"query\": \"q\", \"answer\": \"a\"}\n");
        CliTest.Result r = CliTest.run("validate", "--env", env.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals(List.of(env + ":4: mcp.command: cannot start 'no-such-mcp-server': not found on PATH"), r.err().lines()
                .filter(l -> !l.isBlank()).map(l -> l.replaceFirst("^openagent: ", "")).toList());
    }

    @Test
    void evalWithTheOpenaiAgentReportsTheFileEnvironmentBesideABuiltInOne() throws Exception {
        String store = dir.resolve("runs.db").toString();
        try (BenchEndpoint endpoint = new BenchEndpoint(2)) {
            CliTest.Result r = CliTest.run("eval", "--agent", "openai", "--base-url", endpoint.baseUrl(), "--model", "m", "--env", "poi," + FILES,
                    "--shift", "tier:perception", "--tasks", "2", "--store", store, "--json", "--no-progress");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.json().path("complete").asBoolean(), r.out());
        }
        CliTest.Result report = CliTest.run("report", "--store", store, "--out", dir.resolve("report").toString());
        assertEquals(0, report.code(), report.err());
        String md = Files.readString(dir.resolve("report/report.md"));
        assertTrue(md.contains("files") && md.contains("poi"), md);
    }

    @Test
    void exportWritesFineTuningLinesWithShiftedSchemas() throws Exception {
        Path out = dir.resolve("files.jsonl");
        CliTest.Result r = CliTest.run("export", "--env", FILES, "--format", "openai", "--alpha", "0.5", "--n", "40", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals(40, lines.size());
        boolean renamed = false;
        for (String line : lines) {
            JsonNode ex = Json.parse(line);
            assertTrue(ex.path("messages").isArray() && ex.path("tools").isArray(), line);
            for (JsonNode t : ex.path("tools")) {
                assertEquals("object", t.path("function").path("parameters").path("type").asText(), line);
                String name = t.path("function").path("name").asText();
                renamed |= !List.of("read_text_file", "read_file", "read_media_file", "read_multiple_files", "write_file", "edit_file", "create_directory",
                        "list_directory", "list_directory_with_sizes", "directory_tree", "move_file", "search_files", "get_file_info",
                        "list_allowed_directories", "ask_user").contains(name);
            }
        }
        // 40 examples at alpha 0.5: about 20 shifted, drawn over every applicable shift (34 in the catalog), so some rename tools.
        assertTrue(renamed, "some examples show shifted tools");
    }
}
