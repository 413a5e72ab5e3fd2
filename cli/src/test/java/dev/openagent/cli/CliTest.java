package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands as a user runs them: output, exit codes, files. */
class CliTest {
    record Result(int code, String out, String err) {}

    static synchronized Result run(String... args) {
        PrintStream out = System.out, err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream(), e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Main.execute(args);
            return new Result(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void envsJsonListsIdToolsAndDifficulties() {
        Result r = run("envs", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode envs = Json.parse(r.out());
        assertTrue(envs.isArray());
        JsonNode poi = envs.get(0);
        assertEquals("poi", poi.get("id").asText());
        assertEquals("function-call", poi.get("interface").asText());
        assertEquals(12, poi.get("tools").size());
        assertEquals(4, poi.get("difficulties").size());
    }

    @Test
    void runJsonReportsTheSummaryAndTheOracleSolvesEverything() {
        Result r = run("run", "--env", "poi", "--agent", "oracle", "--tasks", "60", "--seed", "3", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode s = Json.parse(r.out());
        assertEquals(60, s.get("episodes").asInt());
        assertEquals(1.0, s.get("success_rate").asDouble());
        assertEquals(0.0, s.get("tool_error_rate").asDouble());
        assertTrue(s.get("avg_turns").asDouble() > 1);
    }

    @Test
    void theSameSeedWritesByteIdenticalFilesAndAnotherSeedDiffers(@TempDir Path dir) throws Exception {
        for (String name : new String[]{"a", "b"}) {
            assertEquals(0, run("run", "--agent", "random", "--tasks", "30", "--seed", "5", "--out", dir.resolve(name).toString()).code());
        }
        assertEquals(0, run("run", "--agent", "random", "--tasks", "30", "--seed", "6", "--out", dir.resolve("c").toString()).code());
        byte[] a = Files.readAllBytes(dir.resolve("a/trajectories.jsonl"));
        assertArrayEquals(a, Files.readAllBytes(dir.resolve("b/trajectories.jsonl")));
        assertFalse(java.util.Arrays.equals(a, Files.readAllBytes(dir.resolve("c/trajectories.jsonl"))));
        assertEquals(30, Files.readAllLines(dir.resolve("a/trajectories.jsonl")).size());
    }

    @Test
    void showPrintsATranscript(@TempDir Path dir) {
        assertEquals(0, run("run", "--tasks", "2", "--difficulty", "3", "--out", dir.toString()).code());
        Result r = run("show", dir.resolve("trajectories.jsonl").toString(), "--episode", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("[user] "), r.out());
        assertTrue(r.out().contains("[assistant -> search_places]"), r.out());
        assertTrue(r.out().contains("outcome: SUCCESS"), r.out());
    }

    @Test
    void badInputGivesOneLineAndExitCodeTwo(@TempDir Path dir) throws Exception {
        assertBad(run("run", "--env", "mars"), "unknown environment 'mars'");
        assertBad(run("run", "--agent", "genius"), "unknown agent 'genius'");
        assertBad(run("run", "--split", "validation"), "unknown split");
        assertBad(run("run", "--difficulty", "9"), "no difficulty 9");
        assertBad(run("run", "--tasks", "0"), "--tasks must be at least 1");
        assertBad(run("show", dir.resolve("missing.jsonl").toString()), "cannot read");
        Path junk = dir.resolve("junk.jsonl");
        Files.writeString(junk, "{not a trajectory\n");
        assertBad(run("show", junk.toString()), "line 1 is not a trajectory");
        assertEquals(2, run("run", "--tasks", "many").code(), "picocli rejects a non-number");
    }

    private static void assertBad(Result r, String message) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(message), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
    }
}
