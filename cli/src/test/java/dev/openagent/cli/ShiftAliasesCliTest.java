package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.shift.ShiftAliases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.openagent.cli.CliTest.assertBad;
import static dev.openagent.cli.CliTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Peers' names on the command line (issue 38): listed with their sources, and run, stored and reported as catalog ids. */
@Timeout(120)
class ShiftAliasesCliTest {
    @TempDir
    Path dir;

    @Test
    void shiftsAliasesListsEveryAliasWithWhatItMeansAndItsSource() {
        CliTest.Result json = run("shifts", "--aliases", "--json");
        assertEquals(0, json.code(), json.err());
        List<String> listed = new ArrayList<>();
        for (JsonNode a : json.json()) {
            listed.add(a.path("alias").asText());
            assertFalse(a.path("means").asText().isBlank(), a.toString());
            assertFalse(a.path("source").asText().isBlank(), a.toString());
            assertFalse(a.path("peer").asText().isBlank(), a.toString());
            assertTrue(a.has("note"), a.toString());
        }
        assertEquals(ShiftAliases.all().stream().map(ShiftAliases.Alias::name).toList(), listed);
        assertTrue(listed.containsAll(List.of("clean", "slight", "medium", "heavy", "union", "tool_name_scrambled", "malformed_json",
                "realistic_typos", "query-rewrite", "tool-redirection")), listed.toString());

        CliTest.Result text = run("shifts", "--aliases");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().lines().findFirst().orElseThrow().matches("alias\\s+means\\s+source"), text.out());
        assertTrue(text.out().lines().anyMatch(l -> l.matches("slight\\s+tool\\.name-noise:severity=2\\s+RoTBench: .*")), text.out());
        assertBad(run("shifts", "--aliases", "--env", "poi"), "--aliases lists peers' names; it takes neither --examples nor --env");
    }

    /** The same experiment under a peer's name and under its spec is one run: one id, the same condition names, every episode reused. */
    @Test
    void anAliasIsStoredReportedAndHashedAsItsSpec() throws Exception {
        String store = dir.resolve("runs.db").toString();
        CliTest.Result byAlias = run("eval", "--agent", "oracle", "--shift", "slight", "--tasks", "3", "--store", store, "--json", "--no-progress");
        assertEquals(0, byAlias.code(), byAlias.err());
        CliTest.Result bySpec = run("eval", "--agent", "oracle", "--shift", "tool.name-noise:severity=2", "--tasks", "3", "--store", store,
                "--json", "--no-progress");
        assertEquals(0, bySpec.code(), bySpec.err());
        assertEquals(byAlias.json().path("run").asText(), bySpec.json().path("run").asText());
        assertEquals(List.of("none", "tool.name-noise"), fieldNames(byAlias.json().path("by_shift")));
        assertEquals(fieldNames(byAlias.json().path("by_shift")), fieldNames(bySpec.json().path("by_shift")));
        assertEquals(bySpec.json().path("planned").asInt(), bySpec.json().path("reused").asInt(), "the second run is the first one");

        Path exp = dir.resolve("exp.yaml");
        Files.writeString(exp, "agents: [{kind: oracle}]\nenvs: [poi]\nshifts: [heavy]\ntasks: 3\n");
        CliTest.Result byFile = run("eval", "--config", exp.toString(), "--store", store, "--json", "--no-progress");
        assertEquals(0, byFile.code(), byFile.err());
        CliTest.Result byFileSpec = run("eval", "--agent", "oracle", "--shift", "tool.semantic-trap:severity=3", "--tasks", "3", "--store", store,
                "--json", "--no-progress");
        assertEquals(byFile.json().path("run").asText(), byFileSpec.json().path("run").asText(), "an experiment file's alias is written out too");

        Path out = dir.resolve("report");
        assertEquals(0, run("report", "--store", store, "--run", byAlias.json().path("run").asText(), "--out", out.toString()).code());
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("tool.name-noise"), md);
        assertFalse(md.contains("slight"), md);
    }

    @Test
    void aBadAliasIsOneLineAndExitCodeTwoInEveryCommand() {
        for (String command : new String[]{"run", "validate", "eval --agent oracle"}) {
            String[] words = command.split(" ");
            String[] args = java.util.Arrays.copyOf(words, words.length + 2);
            args[words.length] = "--shift";
            args[words.length + 1] = "heavy:severity=1";
            assertBad(run(args), "--shift 'heavy:severity=1': 'heavy' is RoTBench's name for tool.semantic-trap:severity=3 and takes no parameters");
            args[words.length + 1] = "sligth";
            assertBad(run(args), "--shift 'sligth': unknown shift 'sligth'; did you mean slight?");
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
