package dev.openagent.store;

import dev.openagent.fake.Results;
import dev.openagent.run.EpisodeResult;
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

    static boolean hasListingIndex(Path file) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'episodes_listing'")) {
            return rs.next() && rs.getInt(1) == 1;
        }
    }
}
