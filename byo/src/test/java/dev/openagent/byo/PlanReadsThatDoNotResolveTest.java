package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Plan reads: a {@code {N:/pointer}} inside a text argument is filled in (it was sent literally), one that cannot be
 * filled in and a nested $ref are load errors with file, line and key, and a $ref whose pointer the live result
 * lacks fails its episode with one line (it crashed the command with an IllegalStateException trace).
 */
class PlanReadsThatDoNotResolveTest {
    @TempDir
    Path dir;

    /** The lookup file, answering "code B2" (a text with the code inside) too. */
    private static final String ENV = LookupFile.yaml("codes").replace("      - error:",
            "      - when: {code: \"code B2\"}\n        response: {\"name\": \"Beta, by text\"}\n      - error:");

    private FileEnvironment load(String task) throws Exception {
        Files.writeString(dir.resolve("env.yaml"), ENV);
        Files.writeString(dir.resolve("tasks.jsonl"), task + "\n");
        return FileEnvironment.load(dir.resolve("env.yaml"));
    }

    private String error(String task) {
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> load(task));
        assertEquals(1, e.getMessage().lines().count(), e.getMessage());
        return e.getMessage();
    }

    private static Trajectory oracle(FileEnvironment file) {
        return Episodes.run(file.create(), new OracleAgent(), new TaskRequest(Split.TEST, 1, 0));
    }

    @Test
    void aPlaceholderInsideATextArgumentIsFilledIn() throws Exception {
        try (FileEnvironment file = load("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}},"
                + " {\"tool\": \"lookup\", \"args\": {\"code\": \"code {0:/next}\"}}], \"answer\": \"{1:/name}\", \"check\": {\"answer_contains\": [\"Beta, by text\"]}}")) {
            Trajectory t = oracle(file);
            assertTrue(t.outcome().success(), t.outcome().detail());
            assertEquals(2, t.difficulty(), "the read in the text makes a second hop");
        }
    }

    @Test
    void readsThatCannotBeFilledInAreLoadErrors() {
        String m = error("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"code {0:/next}\"}}], \"answer\": \"x\"}");
        assertTrue(m.matches(".*tasks\\.jsonl:1: gold\\[0]\\.args\\.code: \\{0:/next} reads call 0, which is not before this call \\(0\\)"), m);
        m = error("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}, {\"tool\": \"lookup\", \"args\": {\"code\": {\"id\": {\"$ref\": \"0:/next\"}}}}], \"answer\": \"x\"}");
        assertTrue(m.contains("gold[1].args.code.id: a $ref here is not filled in"), m);
        m = error("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"{1:/name}\"}");
        assertTrue(m.contains("tasks.jsonl:1: answer: {1:/name} reads call 1, but the plan has 1 call"), m);
        m = error("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}}], \"answer\": \"x\","
                + " \"check\": {\"state\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"{0:/next}\"}, \"result_contains\": \"x\"}]}}");
        assertTrue(m.contains("check.state[0].args.code: a {N:/pointer} here is not filled in"), m);
    }

    @Test
    void aPointerTheResultLacksFailsTheEpisodeInOneLine() throws Exception {
        try (FileEnvironment file = load("{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {\"code\": \"A1\"}},"
                + " {\"tool\": \"lookup\", \"args\": {\"code\": {\"$ref\": \"0:/nxt\"}}}], \"answer\": \"Beta\"}")) {
            Trajectory t = oracle(file);
            assertFalse(t.outcome().success());
            String answer = t.messages().getLast().content();
            assertEquals("oracle: plan call 1 (lookup) cannot be made: the result of call 0 has nothing at /nxt: {\"name\":\"Alpha\",\"next\":\"B2\"}", answer);
        }
    }
}
