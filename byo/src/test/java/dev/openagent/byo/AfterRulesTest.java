package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A tool's after facts are rules of the episode: a call before its prerequisite succeeded is refused, not sent (it was sent). */
class AfterRulesTest {
    @TempDir
    Path dir;

    @Test
    void aCallBeforeItsPrerequisiteIsRefused() throws Exception {
        Files.writeString(dir.resolve("env.yaml"), """
                id: ordered
                tools:
                  check: {description: Checks that desk 4 is free., response: "free"}
                  book:
                    description: Books desk 4.
                    after: [check]
                    response: "BK-1"
                tasks: tasks.jsonl
                """);
        Files.writeString(dir.resolve("tasks.jsonl"), "{\"id\": \"a\", \"query\": \"Book desk 4.\", \"gold\": [{\"tool\": \"check\", \"args\": {}},"
                + " {\"tool\": \"book\", \"args\": {}}], \"answer\": \"BK-1\"}\n");
        try (FileEnvironment file = FileEnvironment.load(dir.resolve("env.yaml"))) {
            Env env = file.create();
            env.reset(new TaskRequest(Split.TEST, 1, 0));
            Step early = env.step(Action.CallTools.of("c1", "book", "{}"));
            assertTrue(early.observations().getFirst().isError());
            assertEquals("Error [DOMAIN]: book needs a successful call of check first, in this episode", early.observations().getFirst().text());
            assertFalse(env.step(Action.CallTools.of("c2", "check", "{}")).observations().getFirst().isError());
            assertEquals("BK-1", env.step(Action.CallTools.of("c3", "book", "{}")).observations().getFirst().text());
            // The next episode starts with no prerequisite met; the oracle follows the plan in order.
            env.reset(new TaskRequest(Split.TEST, 2, 0));
            assertTrue(env.step(Action.CallTools.of("c1", "book", "{}")).observations().getFirst().isError());
            assertTrue(Episodes.run(file.create(), new OracleAgent(), new TaskRequest(Split.TEST, 3, 0)).outcome().success());
        }
    }
}
