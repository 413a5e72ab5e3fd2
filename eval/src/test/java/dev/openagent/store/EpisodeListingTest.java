package dev.openagent.store;

import dev.openagent.fake.Results;
import dev.openagent.metrics.Failure;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The viewer's read queries (filtered pages in SQL, facets, the static twin) in SQLite and PostgreSQL, and the listing index. */
class EpisodeListingTest {
    @TempDir
    Path dir;

    /** Tasks 0..5: agent a static (all succeed) and shifted (odd tasks fail), agent b static with one infrastructure error. */
    static void fill(ResultStore s) {
        s.beginRun("r", "r", "{}", 18);
        for (int task = 0; task < 6; task++) {
            s.saveEpisode("r", Results.answered("a", "none", "static", task, true));
            s.saveEpisode("r", Results.answered("a", "tool.semantic-rename", "perception", task, task % 2 == 0));
            s.saveEpisode("r", Results.episode("b", "none", "static", task, 0, task != 3, true, task == 3 ? Outcome.End.INFRA_ERROR : Outcome.End.ANSWERED));
        }
        s.saveEpisode("other", Results.answered("c", "none", "static", 99, true));
        s.flush();
    }

    static void check(ResultStore s) {
        EpisodePage all = s.episodePage("r", EpisodeFilter.ALL, 0, 4);
        assertEquals(18, all.total());
        assertEquals(4, all.ids().size());
        // plan order: task, trial, agent, env, shift
        List<EpisodeResult> first = s.episodes(all.ids());
        assertEquals(List.of("a none", "a tool.semantic-rename", "b none", "a none"), first.stream().map(e -> e.agent() + " " + e.shift()).toList());
        assertEquals(List.of(0, 0, 0, 1), first.stream().map(EpisodeResult::taskIndex).toList());

        EpisodePage failures = s.episodePage("r", new EpisodeFilter("a", null, null, "tool.semantic-rename", EpisodeFilter.Result.FAILURE), 0, 50);
        assertEquals(3, failures.total());
        assertTrue(s.episodes(failures.ids()).stream().noneMatch(EpisodeResult::success));
        assertEquals(1, s.episodePage("r", new EpisodeFilter(null, null, null, null, EpisodeFilter.Result.INFRA_ERROR), 0, 50).total());
        assertEquals(6 + 3 + 5, s.episodePage("r", new EpisodeFilter(null, null, null, null, EpisodeFilter.Result.SUCCESS), 0, 50).total());
        assertEquals(6, s.episodePage("r", new EpisodeFilter(null, "poi", "perception", null, null), 0, 50).total());
        // the failure category (docs/evaluation.md): the shifted failures answered wrongly, the one infrastructure error
        EpisodePage wrong = s.episodePage("r", new EpisodeFilter("a", null, null, null, null, Failure.WRONG_ANSWER), 1, 50);
        assertEquals(3, wrong.total());
        assertEquals(List.of(3, 5), s.episodes(wrong.ids()).stream().map(EpisodeResult::taskIndex).toList(), "in plan order, from the offset");
        assertEquals(1, s.countEpisodes("r", new EpisodeFilter(null, null, null, null, null, Failure.INFRA_ERROR)));
        assertEquals(14, s.countEpisodes("r", new EpisodeFilter(null, null, null, null, null, Failure.SUCCESS)));
        assertEquals(0, s.countEpisodes("r", new EpisodeFilter(null, null, null, null, EpisodeFilter.Result.SUCCESS, Failure.WRONG_ANSWER)));
        assertEquals(0, s.countEpisodes("r", new EpisodeFilter(null, null, null, null, null, Failure.FALSE_REFUSAL)));
        EpisodePage beyond = s.episodePage("r", EpisodeFilter.ALL, 40, 10);
        assertEquals(List.of(), beyond.ids());
        assertEquals(18, beyond.total(), "past the last page the count still holds");

        assertEquals(new RunFacets(List.of("a", "b"), List.of("poi"), List.of("perception", "static"), List.of("none", "tool.semantic-rename")), s.facets("r"));
        assertEquals(18, s.linkedEpisodes("r"));
        assertEquals(new RunProgress(18, 17, 17), s.progress("r"));

        EpisodeResult shifted = Results.answered("a", "tool.semantic-rename", "perception", 3, false);
        assertEquals(Optional.of(Results.answered("a", "none", "static", 3, true).id()), s.staticTwin(shifted.key()));
        assertEquals(Optional.empty(), s.staticTwin(Results.answered("z", "tool.semantic-rename", "perception", 3, false).key()));
    }

    @Test
    void sqlite() {
        try (ResultStore s = ResultStore.open(dir.resolve("s.db"))) {
            fill(s);
            check(s);
        }
        try (ResultStore s = ResultStore.openReadOnly(new StoreLocation.SqliteFile(dir.resolve("s.db")))) {
            check(s);
        }
    }

    @Test
    void postgres() {
        LocalPostgres pg = LocalPostgres.get();
        StoreLocation where = pg.location(pg.createDatabase());
        try (ResultStore s = ResultStore.open(where)) {
            fill(s);
            check(s);
        }
    }

    @Test
    void aStoreFromBeforeTheListingIndexGetsItFromTheFirstProcessThatWrites() throws Exception {
        Path file = dir.resolve("old.db");
        try (ResultStore s = ResultStore.open(file)) {
            fill(s);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            st.execute("DROP INDEX episodes_listing");
        }
        try (ResultStore s = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file))) {
            check(s);   // slower without it, and the same
        }
        assertFalse(hasListingIndex(file), "a reader creates nothing");
        try (ResultStore s = ResultStore.open(file)) {
            check(s);
        }
        assertTrue(hasListingIndex(file));
    }

    @Test
    void anInfrastructureErrorRunAgainIsListedWithItsNewOutcomeInEveryRunThatLinksIt() {
        try (ResultStore s = ResultStore.open(dir.resolve("s.db"))) {
            fill(s);
            s.saveEpisode("again", Results.episode("b", "none", "static", 3, 0, false, true, Outcome.End.REFUSED));
            s.flush();
            EpisodeFilter refused = new EpisodeFilter("b", null, null, null, null, Failure.FALSE_REFUSAL);
            assertEquals(1, s.countEpisodes("again", refused));
            assertEquals(1, s.countEpisodes("r", refused), "the run that linked the infrastructure error lists the new outcome");
            assertEquals(0, s.countEpisodes("r", new EpisodeFilter(null, null, null, null, EpisodeFilter.Result.INFRA_ERROR)));
            assertEquals(new RunProgress(18, 18, 18), s.progress("r"));
        }
    }

    @Test
    void aStoreOfSchema1IsReadAsItIsAndUpgradedByTheFirstProcessThatWrites() throws Exception {
        Path file = dir.resolve("v1.db");
        try (ResultStore s = ResultStore.open(file)) {
            fill(s);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
            toSchema1(st);
        }
        try (ResultStore s = ResultStore.openReadOnly(new StoreLocation.SqliteFile(file))) {
            check(s);   // the listing joined from the episodes, the category read from the trajectories
        }
        assertEquals("1", schemaVersion(file), "a reader changes nothing");
        try (ResultStore s = ResultStore.open(file)) {
            check(s);
        }
        assertEquals("2", schemaVersion(file));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM run_episodes WHERE failure IS NULL OR agent IS NULL")) {
            rs.next();
            assertEquals(0, rs.getInt(1), "every link got its listing columns");
        }
    }

    @Test
    void aPostgresStoreOfSchema1IsUpgradedByTheFirstProcessThatWrites() throws Exception {
        LocalPostgres pg = LocalPostgres.get();
        String db = pg.createDatabase();
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            fill(s);
        }
        try (Connection c = pg.connect(db); Statement st = c.createStatement()) {
            toSchema1(st);
        }
        try (ResultStore s = ResultStore.openReadOnly(pg.location(db))) {
            check(s);
        }
        try (ResultStore s = ResultStore.open(pg.location(db))) {
            check(s);
        }
        try (Connection c = pg.connect(db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'schema_version'")) {
            rs.next();
            assertEquals("2", rs.getString(1));
        }
    }

    /** Takes a store back to schema 1: no failure column, links without the listing columns. */
    static void toSchema1(Statement st) throws Exception {
        st.execute("DROP INDEX run_episodes_listing");
        st.execute("DROP INDEX run_episodes_episode");
        st.execute("ALTER TABLE episodes DROP COLUMN failure");
        st.execute("ALTER TABLE episodes DROP COLUMN attacked");
        for (String column : StoreSchema.LISTING_COLUMNS.split(", ")) st.execute("ALTER TABLE run_episodes DROP COLUMN " + column);
        st.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'");
    }

    static String schemaVersion(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT value FROM meta WHERE key = 'schema_version'")) {
            rs.next();
            return rs.getString(1);
        }
    }

    static boolean hasListingIndex(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'episodes_listing'")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }
}
