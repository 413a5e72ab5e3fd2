package dev.openagent.store;

import dev.openagent.fake.Results;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultStoreTest {
    @TempDir
    Path dir;

    @Test
    void cachedResponsesSurviveReopening() {
        Path file = dir.resolve("nested/dir/r.db");
        try (ResultStore s = ResultStore.open(file)) {
            assertEquals(Optional.empty(), s.get("k"));
            s.put("k", "m", "{\"choices\":[]}");
            s.flush();
            assertEquals(Optional.of("{\"choices\":[]}"), s.get("k"));
            s.put("k", "m", "{\"v\":2}");
        }
        try (ResultStore s = ResultStore.open(file)) {
            assertEquals(Optional.of("{\"v\":2}"), s.get("k"), "close commits what was queued");
        }
    }

    @Test
    void episodesRoundTripAndAnErrorIsReplacedByItsRetry() {
        Path file = dir.resolve("r.db");
        EpisodeResult failed = Results.episode("a", "none", "static", 4, 0, false, true, Outcome.End.INFRA_ERROR);
        EpisodeResult done = Results.answered("a", "none", "static", 4, true);
        EpisodeResult other = Results.answered("a", "none", "static", 5, false);
        try (ResultStore s = ResultStore.open(file)) {
            s.saveRun("run-1", "first", "{}", 2, RunStatus.RUNNING, null);
            s.saveEpisode("run-1", failed);
            s.saveEpisode("run-1", other);
            s.flush();
            assertEquals(java.util.Set.of(other.id()), s.finishedEpisodes("cfg"), "an infrastructure error is not finished");
            s.saveEpisode("run-1", done);
            s.saveRun("run-1", "first", "{}", 2, RunStatus.COMPLETE, null);
        }
        try (ResultStore s = ResultStore.open(file)) {
            EpisodeResult back = Results.assertReadBack(s.episodes("run-1"), 2, done);
            assertEquals(done.gold(), back.gold());
            assertEquals(RunStatus.COMPLETE, s.run("run-1").orElseThrow().status());
            // Another run that includes a finished episode links to it.
            s.saveRun("run-2", "second", "{}", 1, RunStatus.COMPLETE, null);
            s.link("run-2", List.of(other.id()));
            assertEquals(List.of(other.id()), s.episodes("run-2").stream().map(EpisodeResult::id).toList());
            assertEquals(2, s.runs().size());
        }
    }

    @Test
    void manyThreadsSaveThroughTheOneWriter() throws Exception {
        Path file = dir.resolve("r.db");
        try (ResultStore s = ResultStore.open(file)) {
            s.saveRun("run", "r", "{}", 2000, RunStatus.RUNNING, null);
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < 2000; i++) {
                    int n = i;
                    pool.submit(() -> {
                        s.saveEpisode("run", Results.answered("a", "none", "static", n, n % 3 == 0));
                        s.put("key" + n, "m", "body" + n);
                    });
                }
            }
            s.flush();
            assertEquals(2000, s.episodes("run").size());
            for (int i = 0; i < 2000; i++) assertEquals(Optional.of("body" + i), s.get("key" + i));
        }
    }

    @Test
    void aCommittedEpisodeSurvivesAProcessThatNeverClosedTheStore() throws Exception {
        Path file = dir.resolve("r.db");
        ResultStore s = ResultStore.open(file);
        s.saveRun("run", "r", "{}", 1, RunStatus.RUNNING, null);
        s.saveEpisode("run", Results.answered("a", "none", "static", 1, true));
        s.flush();
        // No close(): as after kill -9, another process opens the same file and sees the committed episode.
        try (ResultStore other = ResultStore.open(file)) {
            assertEquals(1, other.episodes("run").size());
        }
        s.close();
    }

    @Test
    void aStoreOfAnotherSchemaIsRefusedWithAClearMessage() throws Exception {
        Path file = dir.resolve("r.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            st.execute("INSERT INTO meta VALUES ('schema_version', '99')");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultStore.open(file));
        assertTrue(e.getMessage().contains("schema 99"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ResultStore.openExisting(dir.resolve("missing.db")));
        Files.writeString(dir.resolve("junk.db"), "this is not a database, just text that is long enough to have a header......");
        assertThrows(IllegalArgumentException.class, () -> ResultStore.open(dir.resolve("junk.db")));
    }
}
