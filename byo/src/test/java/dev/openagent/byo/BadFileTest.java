package dev.openagent.byo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input is one line naming the file, the line and the key, before any episode runs. */
class BadFileTest {
    @TempDir
    Path dir;

    private static final String INLINE = LookupFile.yaml("inline");

    private String error(String env, String tasks) throws Exception {
        Files.writeString(dir.resolve("env.yaml"), env);
        Files.writeString(dir.resolve("tasks.jsonl"), tasks);
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    private static final String GOOD_TASK = "{\"id\": \"a\", \"query\": \"Name of A1?\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"Alpha\"}\n";

    @Test
    void unknownKeysNameFileLineAndKey() throws Exception {
        String m = error(INLINE + "tolls: {}\n", GOOD_TASK);
        assertTrue(m.matches(".*env\\.yaml:13: tolls: unknown key 'tolls'"), m);
        m = error(INLINE, GOOD_TASK + "{\"id\": \"b\", \"query\": \"q\", \"answr\": \"x\"}\n");
        assertTrue(m.matches(".*tasks\\.jsonl:2: answr: unknown key 'answr'"), m);
    }

    @Test
    void unknownToolsAndRefsToLaterCallsAreReported() throws Exception {
        String m = error(INLINE, "\n" + GOOD_TASK.replace("\"tool\": \"lookup\"", "\"tool\": \"lookpu\""));
        assertTrue(m.matches(".*tasks\\.jsonl:2: gold\\[0]\\.tool: unknown tool 'lookpu' \\(tools: lookup\\)"), m);
        m = error(INLINE, "{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": {\"$ref\": \"1:/next\"}}},"
                + " {\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"Beta\"}\n");
        assertTrue(m.contains("gold[0].args.code: $ref to call 1, which is not before this call"), m);
        m = error(INLINE, GOOD_TASK.replace("\"answer\": \"Alpha\"", "\"answer\": \"Alpha\", \"check\": {\"state\": [{\"tool\": \"peek\", \"result_contains\": \"x\"}]}"));
        assertTrue(m.contains("check.state[0].tool: unknown tool 'peek'"), m);
    }

    @Test
    void missingFixturesAndCommandsThatCannotStartAreReported() throws Exception {
        String m = error(INLINE + "reset: {copy: fixtures/}\n", GOOD_TASK);
        assertTrue(m.contains("env.yaml:13: reset.copy: no fixture folder"), m);
        m = error("id: x\nmcp:\n  command: [/no/such/server, \"{workdir}\"]\ntasks: tasks.jsonl\n", GOOD_TASK);
        assertTrue(m.contains("env.yaml:3: mcp.command: cannot start '/no/such/server': no such file"), m);
    }

    @Test
    void inlineToolsServeCannedAnswersAndRefsReadFieldsOfJsonResults() throws Exception {
        Files.writeString(dir.resolve("env.yaml"), INLINE);
        Files.writeString(dir.resolve("tasks.jsonl"), "{\"id\": \"a\", \"query\": \"What is the name of the code that A1 points to?\", \"gold\": ["
                + "{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}, {\"tool\": \"lookup\", \"args\": {\"code\": {\"$ref\": \"0:/next\"}}}],"
                + " \"answer\": \"{1:/name}\", \"check\": {\"answer_contains\": [\"Beta\"], \"answer_not_contains\": [\"Alpha\"]}}\n");
        try (FileEnvironment env = FileEnvironment.load(dir.resolve("env.yaml"))) {
            var t = dev.openagent.episode.Episodes.run(env.create(), new dev.openagent.oracle.OracleAgent(),
                    new dev.openagent.sandbox.TaskRequest(dev.openagent.sandbox.Split.TEST, 1, 0));
            assertTrue(t.outcome().success(), t.outcome().detail());
            var e = env.create();
            e.reset(new dev.openagent.sandbox.TaskRequest(dev.openagent.sandbox.Split.TEST, 1, 0));
            var step = e.step(dev.openagent.sandbox.Action.CallTools.of("c", "lookup", "{\"code\": \"Z9\"}"));
            assertEquals("Error [DOMAIN]: no code Z9", step.observations().getFirst().text());
        }
    }
}
