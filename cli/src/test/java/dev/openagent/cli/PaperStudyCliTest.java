package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code study paper} end to end at its hidden test budget ({@code --tiny}: a few steps and two tasks per
 * condition): the rows, findings and files a user reads, whatever the numbers. The agents, tiers and the shift
 * count are written down here, not read from the study's code.
 */
class PaperStudyCliTest {
    private static final List<String> AGENTS = List.of("sft", "rl", "paft-0.1", "paft-0.3", "paft-0.5");
    private static final List<String> TIERS = List.of("static", "perception", "interaction", "reasoning", "internalization", "security");
    /** The catalog's shifts that apply to poi: all but interface.action-list (text commands only). */
    private static final int POI_SHIFTS = 42;
    private static final int TASKS = 2;

    @TempDir
    Path dir;

    @Test
    void theTinyPaperStudyWritesEveryRowFindingAndFile() throws Exception {
        Path out = dir.resolve("paper");
        CliTest.Result r = CliTest.run("study", "paper", "--tiny", "--out", out.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode json = r.json();
        assertEquals("paper", json.path("study").asText());
        assertEquals("tiny", json.path("budget").asText());
        assertEquals(1, json.path("seed").asInt());

        JsonNode rows = json.path("rows");
        for (String agent : AGENTS) {
            Set<String> tiers = new LinkedHashSet<>();
            int shifts = 0;
            for (JsonNode row : rows) {
                if (!row.path("agent").asText().equals(agent)) continue;
                double rate = row.path("success_rate").asDouble(-1);
                assertTrue(rate >= 0 && rate <= 1, row.toString());
                assertTrue(row.path("ci_low").asDouble() <= rate && rate <= row.path("ci_high").asDouble(), row.toString());
                boolean security = row.path("tier").asText().equals("security");
                // Attack success is reported exactly where the episodes were attacked: the security tier.
                assertEquals(security, row.has("attack_success_rate") && row.path("attack_success_rate").isNumber(), row.toString());
                // Every condition's ceiling: the share of its tasks the policy's action space can express.
                double ceiling = row.path("ceiling").asDouble(-1);
                assertTrue(ceiling >= 0 && ceiling <= 1, row.toString());
                if (row.path("shift").isTextual()) {
                    shifts++;
                    assertEquals(TASKS, row.path("episodes").asInt(), row.toString());
                } else {
                    tiers.add(row.path("tier").asText());
                }
            }
            assertEquals(List.copyOf(TIERS), List.copyOf(tiers), agent + ": static, then one row per tier");
            assertEquals(POI_SHIFTS, shifts, agent + ": one row per shift that applies to poi");
        }
        assertEquals(AGENTS.size() * (TIERS.size() + POI_SHIFTS), rows.size(), "no rows of other agents");
        assertFalse(json.path("findings").isEmpty());
        for (JsonNode f : json.path("findings")) {
            for (String k : List.of("claim", "verdict", "evidence")) assertFalse(f.path(k).asText().isBlank(), k + " in " + f);
        }
        for (String agent : AGENTS) {
            assertNotNull(json.path("training").get(agent), "how " + agent + " was trained");
            assertTrue(Files.isRegularFile(out.resolve("policies").resolve(agent).resolve("weights.bin")), agent + "'s checkpoint");
        }

        // The files the command names, and the JSON it printed is the results.json it wrote.
        for (String f : List.of("study.md", "study.html", "results.json", "report.html")) assertTrue(Files.isRegularFile(out.resolve(f)), f);
        for (String f : List.of("study.html", "report.html")) assertTrue(r.err().contains(out.resolve(f).toString()), f + " named in " + r.err());
        assertEquals(json, Json.parse(Files.readString(out.resolve("results.json"))));
        String md = Files.readString(out.resolve("study.md"));
        for (String agent : AGENTS) assertTrue(md.contains(agent), agent + " in study.md");
        assertTrue(md.contains("obs.injection") && md.contains("attacked"), "the security tier with attack success in study.md");
        assertTrue(md.contains("| tier | shift | ceiling | sft |") && md.contains("| *ceiling* |"), "the ceilings in study.md");
        assertTrue(r.err().contains("security"), "the table on standard error has the security tier: " + r.err());
    }

    @Test
    void badInputIsRefusedWithExitTwo() {
        CliTest.Result seed = CliTest.run("study", "paper", "--tiny", "--seed", "one", "--out", dir.resolve("x").toString());
        assertEquals(2, seed.code(), seed.err());
        assertTrue(seed.err().contains("--seed"), seed.err());
        CliTest.Result unknown = CliTest.run("study", "paper", "--budget", "huge");
        assertEquals(2, unknown.code(), unknown.err());
        assertTrue(unknown.err().contains("--budget"), unknown.err());
        assertFalse(Files.exists(dir.resolve("x")), "nothing is written on bad input");
    }
}
