package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --env tau2:retail as a user runs it: found beside the repository, its episodes on record with their final database. */
class Tau2CliTest {
    @Test
    void runWritesTau2TaskIdsAndTheFinalDatabase(@TempDir Path dir) throws Exception {
        CliTest.Result r = CliTest.run("run", "--env", "tau2:retail", "--agent", "oracle", "--split", "train", "--tasks", "12", "--out", dir.toString(), "--json");
        assertEquals(0, r.code(), r.err());
        assertEquals(1.0, r.json().get("success_rate").asDouble());
        List<String> lines = Files.readAllLines(dir.resolve("trajectories.jsonl"));
        assertEquals(12, lines.size());
        boolean changed = false;
        for (String line : lines) {
            JsonNode t = Json.parse(line);
            assertEquals("tau2-retail", t.get("env").asText());
            assertTrue(t.get("task_id").asText().matches("tau2-retail/train/\\d+"), t.get("task_id").asText());
            assertTrue(t.get("db_changes").isObject());
            changed |= !t.get("db_changes").isEmpty();
        }
        assertTrue(changed, "some task writes");
    }

    @Test
    void theStoreKeepsTheFinalDatabase(@TempDir Path dir) throws Exception {
        String store = dir.resolve("runs.db").toString();
        CliTest.Result r = CliTest.run("eval", "--env", "tau2:retail", "--agent", "oracle", "--split", "train", "--tasks", "6", "--store", store, "--json", "--no-progress");
        assertEquals(0, r.code(), r.err());
        int rows = 0;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + store);
             ResultSet rs = c.createStatement().executeQuery("SELECT task_id, trajectory FROM episodes")) {
            while (rs.next()) {
                rows++;
                assertTrue(rs.getString(1).startsWith("tau2-retail/train/"));
                assertTrue(Json.parse(rs.getString(2)).get("db_changes").isObject());
            }
        }
        assertEquals(6, rows);
    }

    @Test
    void shiftsSayWhatDoesNotApplyAndWhy() {
        CliTest.Result r = CliTest.run("shifts", "--env", "tau2:retail");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("not applicable to tau2-retail: its rules change the formats of dates, times and full person names"), r.out());
        assertTrue(r.out().contains("not applicable to tau2-retail: tau2's retail tools issue no codes"), r.out());
    }

    @Test
    void aMissingCheckoutOrAnUnknownDomainIsOneLine(@TempDir Path dir) {
        CliTest.Result r = CliTest.run("run", "--env", "tau2:retail", "--tau2-dir", dir.resolve("nowhere").toString());
        assertEquals(2, r.code());
        assertEquals("openagent: tau2 directory " + dir.resolve("nowhere") + " does not exist (give a tau2-bench checkout with --tau2-dir or $TAU2_DATA_DIR)",
                r.err().strip());
        CliTest.Result airline = CliTest.run("validate", "--env", "tau2:airline");
        assertEquals(2, airline.code());
        assertEquals("openagent: tau2-bench domain 'airline' is not supported (only tau2:retail)", airline.err().strip());
        assertFalse(airline.err().contains("\tat "));
    }
}
