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
    record Result(int code, String out, String err) {
        JsonNode json() { return Json.parse(out); }
    }

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
        assertBad(run("show", junk.toString()), "line 1 is not a trajectory: it is not JSON");
        Files.writeString(junk, "[1, 2]\n");
        assertBad(run("show", junk.toString()), "line 1 is not a trajectory: it is JSON, but not an episode");
        Path binary = dir.resolve("binary.jsonl");
        Files.write(binary, new byte[]{(byte) 0xC3, 0x28, 0x00, (byte) 0xFF});
        assertBad(run("show", binary.toString()), "is not a text file");
        assertEquals(2, run("run", "--tasks", "many").code(), "picocli rejects a non-number");
    }

    /** Specs that core's parser reads as something else (no shift, no parameters) are errors in every command that takes --shift. */
    @Test
    void malformedShiftSpecsAreErrorsNotAnotherCondition() {
        for (String command : new String[]{"run", "validate", "bench", "eval --agent oracle", "serve mcp --stdio"}) {
            String[] words = command.split(" ");
            for (String[] bad : new String[][]{{"+", "empty shift in '+'"}, {"obs.format:", "no parameters after ':' in 'obs.format:'"},
                    {"none;", "empty condition in shift spec"}, {"obs.format:format=xml,", "empty parameter in 'obs.format:format=xml,'"}}) {
                String[] args = java.util.Arrays.copyOf(words, words.length + 2);
                args[words.length] = "--shift";
                args[words.length + 1] = bad[0];
                assertBad(run(args), "--shift '" + bad[0] + "': " + bad[1]);
            }
        }
        assertBad(run("run", "--shift", "obs.format:colour=red"), "obs.format has no parameter 'colour'");
        assertEquals(0, run("run", "--tasks", "2", "--shift", " obs.format:format=xml + tool.semantic-rename ;none").code(), "spaces are fine");
    }

    static void assertBad(Result r, String message) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(message), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
        assertFalse(r.err().matches("(?s).*\\b(com|java|dev)\\.[a-z.]+\\.[A-Z].*"), "no Java class names: " + r.err());
        assertFalse(r.err().contains("Unrecognized token") || r.err().contains("Cannot deserialize"), "no parser jargon: " + r.err());
    }
}
