package dev.openagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * `validate` (LocalRunner) on an environment file whose MCP server crashes on its first tool calls:
 * the episode runs again on a fresh server process, as in eval, up to three attempts.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class EnvironmentRetryCliTest {
    @TempDir
    Path dir;

    /** An environment file over the crashing server (python3), whose first {@code crashes} tool calls kill it. */
    private Path crashingEnv(String id, int crashes) throws Exception {
        try (InputStream in = getClass().getResourceAsStream("/crashing-mcp/server.py")) {
            Files.copy(in, dir.resolve("server.py"));
        }
        Files.writeString(dir.resolve("tasks.jsonl"), InlineEnvFile.SOLVABLE);
        return Files.writeString(dir.resolve("env.yaml"), """
                id: %s
                mcp:
                  command: ["python3", "{dir}/server.py", "{dir}/calls", "%d"]
                  timeout_seconds: 3
                tasks: tasks.jsonl
                """.formatted(id, crashes));
    }

    @Test
    void aServerThatCrashesTwiceIsRestartedAndTheEpisodePasses() throws Exception {
        Path env = crashingEnv("crashes-twice", 2);
        CliTest.Result r = CliTest.run("validate", "--oracle", "--env", env.toString(), "--shift", "query.paraphrase", "--tasks", "1");
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("1 condition, 1 episodes: all passed"), r.out());
        assertEquals("3", Files.readString(dir.resolve("calls")), "two crashed calls, then one answered");
    }

    @Test
    void aServerThatKeepsCrashingFailsTheCommandWithOneLineAfterThreeAttempts() throws Exception {
        Path env = crashingEnv("crashes-always", 99);
        CliTest.Result r = CliTest.run("validate", "--env", env.toString(), "--shift", "query.paraphrase", "--tasks", "1");
        CliTest.assertBad(r, "environment failed 3 times: ");
        assertEquals("3", Files.readString(dir.resolve("calls")));
    }
}
