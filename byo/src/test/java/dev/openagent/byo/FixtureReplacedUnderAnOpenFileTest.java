package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that holds its database open (SQLite) while the fixture is replaced under it before the next episode:
 * every later write failed with SQLITE_READONLY, and validate said only "state check ... lacks ...". Now the server
 * is seen holding a workdir file open and restarted on a fresh copy for each episode; and a failed check names the
 * tool errors the episode met.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FixtureReplacedUnderAnOpenFileTest {
    @TempDir
    Path dir;

    private static Trajectory episode(Env env, int seed) {
        return Episodes.run(env, new OracleAgent(), new TaskRequest(Split.TEST, seed, 0));
    }

    @Test
    void aServerHoldingItsDatabaseOpenIsRestartedForEachEpisode() throws Exception {
        try (FileEnvironment file = FileEnvironment.load(SqliteServers.write(dir, "notes", ""))) {
            Env env = file.create();
            for (int i = 1; i <= 3; i++) {
                Trajectory t = episode(env, i);
                assertTrue(t.outcome().success(), "episode " + i + ": " + t.outcome().detail());
            }
        }
    }

    /**
     * With restart: false (the user's word: never restart) the server started at load keeps the database it opened,
     * and the episode's fresh copy replaces it: the failed state check names the tool error behind it.
     */
    @Test
    void aFailedCheckNamesTheToolErrorsOfTheEpisode() throws Exception {
        try (FileEnvironment file = FileEnvironment.load(SqliteServers.write(dir, "notes-kept", "  restart: false"))) {
            Trajectory t = episode(file.create(), 1);
            assertFalse(t.outcome().success(), "the fixture was replaced under the open database");
            assertTrue(t.outcome().detail().contains("the episode's tool errors: execute: SQLite error: attempt to write a readonly database"),
                    t.outcome().detail());
        }
    }
}
