package dev.openagent.store;

import dev.openagent.fake.Results;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The results store on a real PostgreSQL server: the same behaviour as SQLite, several writers at once, and clear errors. */
@Timeout(300) // a guard against a hang only (a loaded 2-core machine is slow)
class PostgresStoreTest {
    LocalPostgres pg;
    String db;

    @BeforeEach
    void database() {
        pg = LocalPostgres.get();
        db = pg.createDatabase();
    }

    @Test
    void episodesRunsAndCachedRepliesRoundTripAsInSqlite() {
        EpisodeResult failed = Results.episode("a", "none", "static", 4, 0, false, true, Outcome.End.INFRA_ERROR);
        EpisodeResult done = Results.answered("a", "none", "static", 4, true);
        EpisodeResult other = Results.episode("a", "none", "static", -2152535657050944081L, 0, false, true, Outcome.End.ANSWERED);
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            s.beginRun("run-1", "first", "{\"tasks\":2}", 2);
            s.saveEpisode("run-1", failed);
            s.saveEpisode("run-1", other);
            s.put("k", "m", "{\"v\":1}");
            s.flush();
            assertEquals(Set.of(other.id()), s.finishedEpisodes("cfg"), "an infrastructure error is not finished");
            assertEquals(new RunProgress(2, 1, 1), s.progress("run-1"));
            s.saveEpisode("run-1", done);
            s.put("k", "m", "{\"v\":2}");
            s.saveRun("run-1", "first", "{\"tasks\":2}", 2, RunStatus.COMPLETE, null);
        }
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            List<EpisodeResult> eps = s.episodes("run-1");
            Results.assertReadBack(eps, 2, done);
            assertEquals(-2152535657050944081L, Results.stored(eps, other.id()).key().taskSeed(), "task seeds are 64-bit");
            assertEquals(RunStatus.COMPLETE, s.run("run-1").orElseThrow().status());
            assertEquals(Optional.of("{\"v\":2}"), s.get("k"), "a reply stored again replaces the first");
        }
    }

    @Test
    void frontierVerdictsAndCurvePointsRoundTripAsInSqlite() {
        VerdictsAndCurvesTest.roundTrip(pg.location(db));
    }

    @Test
    void aStoreWithoutTheVerdictAndCurveTablesGetsThemFromItsFirstWriterAsInSqlite() throws Exception {
        VerdictsAndCurvesTest.withoutTheTables(pg.location(db), () -> pg.connect(db));
    }

    @Test
    void aFinishedEpisodeIsNeverOverwrittenByAnotherProcessesError() {
        EpisodeResult done = Results.answered("a", "none", "static", 7, true);
        EpisodeResult failed = Results.episode("a", "none", "static", 7, 0, false, true, Outcome.End.INFRA_ERROR);
        try (ResultStore one = ResultStore.open(pg.location(db)); ResultStore two = ResultStore.open(pg.location(db))) {
            one.beginRun("r", "r", "{}", 1);
            one.saveEpisode("r", done);
            one.flush();
            two.saveEpisode("r", failed);
            two.flush();
            assertEquals(Outcome.End.ANSWERED, one.episodes("r").getFirst().outcome().end());
        }
    }

    @Test
    void severalProcessesWriteOneRunAtOnce() throws Exception {
        // Four stores (as four shards would open them) save overlapping replies and disjoint episodes concurrently.
        List<ResultStore> stores = List.of(ResultStore.open(pg.location(db)), ResultStore.open(pg.location(db)),
                ResultStore.open(pg.location(db)), ResultStore.open(pg.location(db)));
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int w = 0; w < stores.size(); w++) {
                ResultStore s = stores.get(w);
                int shard = w;
                pool.submit(() -> {
                    s.beginRun("run", "r", "{\"tasks\":800}", 800);
                    for (int i = shard; i < 800; i += stores.size()) {
                        s.saveEpisode("run", Results.answered("a", "none", "static", i, i % 3 == 0));
                        s.put("shared" + (i % 50), "m", "body" + (i % 50));   // the same keys from every writer: row-lock contention
                    }
                    s.flush();
                    return null;
                });
            }
        }
        for (ResultStore s : stores) s.close();
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            assertEquals(800, s.episodes("run").size());
            assertEquals(new RunProgress(800, 800, 800), s.progress("run"));
            for (int i = 0; i < 50; i++) assertEquals(Optional.of("body" + i), s.get("shared" + i));
        }
    }

    @Test
    void twoExperimentsUnderOneRunIdAreRefused() {
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            s.beginRun("sweep", "a", "{\"name\":\"a\",\"tasks\":50,\"seed\":1}", 50);
            s.beginRun("sweep", "renamed", "{\"name\":\"renamed\",\"tasks\":50,\"seed\":1}", 50);   // the same experiment joins
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> s.beginRun("sweep", "b", "{\"name\":\"b\",\"tasks\":40,\"seed\":1}", 40));
            assertTrue(e.getMessage().contains("run sweep") && e.getMessage().contains("tasks: 50 there, 40 here"), e.getMessage());
            assertEquals(50, s.run("sweep").orElseThrow().planned(), "the stored run is left alone");
            s.saveEpisode("sweep", Results.answered("a", "none", "static", 1, true));
            s.flush();   // the store still writes: a refused run is the caller's error, not the store's
        }
    }

    @Test
    void aDatabaseOfAnotherSchemaOrAnotherApplicationIsRefusedInOneLine() throws Exception {
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            s.beginRun("r", "r", "{}", 0);
        }
        try (Connection c = pg.connect(db); Statement st = c.createStatement()) {
            st.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'");
        }
        IllegalArgumentException old = assertThrows(IllegalArgumentException.class, () -> ResultStore.open(pg.location(db)));
        assertEquals(pg.location(db) + " has results store schema 0 (from an older openagent); this openagent reads schema 2 (and upgrades schema 1)", old.getMessage());

        String foreign = pg.createDatabase();
        try (Connection c = pg.connect(foreign); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE runs (id serial PRIMARY KEY, distance_km real)");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ResultStore.open(pg.location(foreign)));
        assertTrue(e.getMessage().contains("not an openagent results store"), e.getMessage());
        try (Connection c = pg.connect(foreign); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'episodes'")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "nothing was created in another application's database");
        }
    }

    @Test
    void unreachableServerMissingDatabaseAndMissingPasswordAreOneLineErrors() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        IllegalArgumentException down = assertThrows(IllegalArgumentException.class,
                () -> ResultStore.open(StoreLocation.parse("postgresql://u@127.0.0.1:" + closed + "/x", null)));
        assertTrue(down.getMessage().startsWith("cannot open results store postgresql://u@127.0.0.1:" + closed + "/x: Connection to 127.0.0.1:"
                + closed + " refused"), down.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ResultStore.open(pg.location("no_such_database")));
        assertTrue(missing.getMessage().contains("database \"no_such_database\" does not exist"), missing.getMessage());
        // The sharder role needs a password; this variable is not set, so none is sent.
        IllegalArgumentException noPassword = assertThrows(IllegalArgumentException.class,
                () -> ResultStore.open(StoreLocation.parse(pg.url(LocalPostgres.SHARDER, db), "OPENAGENT_TEST_UNSET_VARIABLE")));
        assertTrue(noPassword.getMessage().endsWith("(no password given: set OPENAGENT_TEST_UNSET_VARIABLE)"), noPassword.getMessage());
        for (IllegalArgumentException e : List.of(down, missing, noPassword)) assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void storeUrlsAreCheckedBeforeAnyConnection() {
        StoreLocation.Postgres p = (StoreLocation.Postgres) StoreLocation.parse("postgresql://evals@db.internal/sweeps?sslmode=require", null);
        assertEquals(new StoreLocation.Postgres("evals", "db.internal", 5432, "sweeps", java.util.Map.of("sslmode", "require"), "PGPASSWORD"), p);
        assertEquals("postgresql://evals@db.internal:5432/sweeps", p.toString());
        for (String bad : List.of("postgresql://evals:secret@db/x", "postgresql://evals@db/x?password=secret")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse(bad, "MY_PW"));
            assertEquals("--store: put no password in the URL; set it in the environment variable MY_PW instead", e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse("postgresql://evals@db/", null));
        assertThrows(IllegalArgumentException.class, () -> StoreLocation.parse("mysql://evals@db/x", null));
        assertEquals(new StoreLocation.SqliteFile(java.nio.file.Path.of("runs/x.db")), StoreLocation.parse("runs/x.db", null));
    }
}
