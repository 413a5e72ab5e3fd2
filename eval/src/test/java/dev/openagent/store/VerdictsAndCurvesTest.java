package dev.openagent.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A frontier's verdicts and a run's learning curve in the results store: read back as written, replaced when written again. */
class VerdictsAndCurvesTest {
    @TempDir
    Path dir;

    static final FrontierVerdicts VERDICTS = new FrontierVerdicts(
            List.of(new FrontierVerdicts.Shift("poi", "obs.injection", "security", "breaks", 1, List.of(1, 2, 3)),
                    new FrontierVerdicts.Shift("poi", "tool.distractors", "perception", "holds", null, List.of(1, 2, 3)),
                    new FrontierVerdicts.Shift("poi", "<img src=x onerror=\"window.ran=1\">", "interaction", "unknown", null, List.of())),
            List.of(new FrontierVerdicts.Test("poi", "obs.injection", "obs.injection:severity=1", 1, "breaks", true, 12, 2, 12, 0.8333333333333334, 0.41, 1.0),
                    new FrontierVerdicts.Test("poi", "tool.distractors", "tool.distractors:severity=1", 1, "holds", true, 20, 20, 20, 0.0, -0.25, 0.125),
                    new FrontierVerdicts.Test("poi", "tool.distractors", "tool.distractors:severity=3", 3, "holds", false, 60, 59, 60, 0.016, -0.1, 0.2),
                    new FrontierVerdicts.Test("poi", null, "obs.format+tool.distractors", 3, "breaks", true, 30, 10, 30, 0.6667, 0.3, 0.9)));

    /** Writes verdicts and a curve, reads them back on another connection, writes them again: what every engine must do. */
    static void roundTrip(StoreLocation location) {
        try (ResultStore s = ResultStore.open(location)) {
            s.beginRun("frontier-1", "a frontier", "{\"kind\":\"frontier\"}", 100);
            assertEquals(Optional.empty(), s.frontier("frontier-1"), "none before the search ends");
            s.saveFrontier("frontier-1", VERDICTS);
            s.beginRun("train-1", "a training", "{\"kind\":\"train\"}", 0);
            s.curvePoint("train-1", "train", 10, "loss", 2.5, null, null);
            s.curvePoint("train-1", "train", 20, "loss", 1.25, null, null);
            s.curvePoint("train-1", "static", 20, "success", 0.75, 0.6, 0.86);
            s.curvePoint("train-1", "train", 10, "loss", 2.0, null, null);   // again: replaces
        }
        try (ResultStore s = ResultStore.openReadOnly(location)) {
            FrontierVerdicts read = s.frontier("frontier-1").orElseThrow();
            assertEquals(VERDICTS, read, "every column, the order, a null breaking severity and a composition's null shift");
            assertEquals(1, read.rungs(read.shifts().getFirst()).size());
            assertEquals(2, read.rungs(read.shifts().get(1)).size());
            assertEquals(List.of(VERDICTS.tests().getLast()), read.compositions());
            assertEquals(Optional.empty(), s.frontier("train-1"));
            assertEquals(List.of(new CurvePoint("static", 20, "success", 0.75, 0.6, 0.86), new CurvePoint("train", 10, "loss", 2.0, null, null),
                    new CurvePoint("train", 20, "loss", 1.25, null, null)), s.curve("train-1"), "by series, metric and x; a point given again replaced");
            assertEquals(List.of(), s.curve("frontier-1"));
        }
        FrontierVerdicts fewer = new FrontierVerdicts(VERDICTS.shifts().subList(0, 1), VERDICTS.tests().subList(0, 1));
        try (ResultStore s = ResultStore.open(location)) {
            s.saveFrontier("frontier-1", fewer);
            assertEquals(fewer, s.frontier("frontier-1").orElseThrow(), "saved again: replaced whole, nothing of the first left");
        }
    }

    @Test
    void verdictsAndCurvePointsRoundTripInSqlite() {
        roundTrip(new StoreLocation.SqliteFile(dir.resolve("r.db")));
    }

    @Test
    void aMergeCopiesVerdictsAndCurves() {
        StoreLocation source = new StoreLocation.SqliteFile(dir.resolve("shard.db"));
        roundTrip(source);
        StoreLocation target = new StoreLocation.SqliteFile(dir.resolve("merged.db"));
        for (int i = 0; i < 2; i++) StoreMerge.mergeInto(List.of(source), target);   // twice: the same
        try (ResultStore from = ResultStore.openReadOnly(source); ResultStore into = ResultStore.openReadOnly(target)) {
            assertEquals(from.frontier("frontier-1"), into.frontier("frontier-1"));
            assertEquals(from.curve("train-1"), into.curve("train-1"));
            assertEquals(3, into.curve("train-1").size());
        }
    }

    @Test
    void aPointWithHalfAnIntervalOrNoValueIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CurvePoint("s", 1, "loss", 1, 0.5, null));
        assertThrows(IllegalArgumentException.class, () -> new CurvePoint("s", 1, "loss", Double.NaN, null, null));
    }

    /**
     * A store of schema 2 made before the tables were added: opened read-only it has no verdicts and no curves (and a
     * reader that opened it so sees them once a writer has added them); opened to write, the tables are added and the
     * schema stays 2, so an openagent that predates them still opens it.
     */
    @Test
    void aSchema2StoreWithoutTheTablesReadsAsEmptyAndGetsThemFromItsFirstWriter() throws Exception {
        Path file = dir.resolve("old.db");
        withoutTheTables(new StoreLocation.SqliteFile(file), () -> DriverManager.getConnection("jdbc:sqlite:" + file));
    }

    /** A connection to the store's database, for what the store's API does not do (dropping its tables). */
    interface Connect {
        Connection open() throws java.sql.SQLException;
    }

    /** As the test above, on any engine. */
    static void withoutTheTables(StoreLocation loc, Connect connect) throws Exception {
        try (ResultStore s = ResultStore.open(loc)) {
            s.saveRun("r", "r", "{}", 0, RunStatus.COMPLETE, null);
        }
        try (Connection c = connect.open(); Statement st = c.createStatement()) {
            for (String t : StoreSchema.ADDED.keySet()) st.execute("DROP TABLE " + t);
        }
        try (ResultStore reader = ResultStore.openReadOnly(loc)) {
            assertEquals(List.of(), reader.curve("r"));
            assertEquals(Optional.empty(), reader.frontier("r"));
            try (Connection c = connect.open()) {
                for (String t : StoreSchema.ADDED.keySet()) assertFalse(StoreSchema.hasTable(c, t), "read-only: nothing created");
            }
            try (ResultStore writer = ResultStore.open(loc)) {
                writer.curvePoint("r", "train", 1, "loss", 3.0, null, null);
                writer.saveFrontier("r", VERDICTS);
            }
            assertEquals(List.of(new CurvePoint("train", 1, "loss", 3.0, null, null)), reader.curve("r"), "the reader sees the added table");
            assertEquals(VERDICTS, reader.frontier("r").orElseThrow());
        }
        try (Connection c = connect.open(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT value FROM meta WHERE key = 'schema_version'")) {
            assertTrue(rs.next());
            assertEquals("2", rs.getString(1), "the tables are additive: the schema version stays");
        }
    }
}
