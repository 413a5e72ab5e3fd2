package dev.openagent.store;

import dev.openagent.fake.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** `store merge` leaves its sources as they are, and its target as it was whenever it fails. */
class StoreMergeTest {
    @TempDir
    Path dir;

    /** A store holding one run of {@code episodes} episodes (enough for many pages of the file). */
    private Path store(String name, String run, int episodes) {
        Path file = dir.resolve(name);
        try (ResultStore s = ResultStore.open(file)) {
            s.saveRun(run, run, "{\"tasks\":" + episodes + "}", episodes, RunStatus.COMPLETE, null);
            for (int i = 0; i < episodes; i++) s.saveEpisode(run, Results.answered("agent-" + run, "none", "static", i, i % 2 == 0));
            s.flush();
        }
        return file;
    }

    private static StoreLocation at(Path file) { return new StoreLocation.SqliteFile(file); }

    /** Working copies left beside the target (a read-only source keeps SQLite's -wal and -shm files, as any reader of it would). */
    private List<String> leftovers() throws IOException {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.contains("merging")).toList();
        }
    }

    @Test
    void aSourceIsOnlyReadAndOneThatIsNotAResultsStoreIsRefused() throws Exception {
        Path empty = Files.createFile(dir.resolve("empty.db"));
        Path foreign = dir.resolve("foreign.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE notes (x TEXT)");
        }
        byte[] foreignBefore = Files.readAllBytes(foreign);
        Path target = dir.resolve("target.db");
        for (Path source : List.of(empty, foreign)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreMerge.mergeInto(List.of(at(source)), at(target)));
            assertEquals(source + " is not an openagent results store (it has no results store tables)", e.getMessage());
        }
        assertEquals(0, Files.size(empty), "nothing was created in the empty file");
        assertArrayEquals(foreignBefore, Files.readAllBytes(foreign), "the foreign database is as it was");
        assertFalse(Files.exists(target), "no target was made");

        Path good = store("good.db", "run-a", 20);
        byte[] goodBefore = Files.readAllBytes(good);
        StoreMerge.Result r = StoreMerge.mergeInto(List.of(at(good)), at(target));
        assertEquals(20, r.episodesAdded());
        assertArrayEquals(goodBefore, Files.readAllBytes(good), "a source is read, never written");
        assertEquals(List.of(), leftovers());
    }

    /** A damaged source is one line naming it; the target keeps every byte and no working copy is left behind. */
    @Test
    void aDamagedSourceLeavesTheTargetAsItWas() throws Exception {
        Path target = store("target.db", "run-t", 30);
        Path damaged = store("damaged.db", "run-d", 400);
        try (FileChannel f = FileChannel.open(damaged, StandardOpenOption.WRITE)) {
            long pages = f.size() / 4096;
            for (long p = pages / 2; p < pages; p++) f.write(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff}), p * 4096);
        }
        byte[] before = Files.readAllBytes(target);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StoreMerge.mergeInto(List.of(at(store("fine.db", "run-f", 5)), at(damaged)), at(target)));
        assertTrue(e.getMessage().startsWith(damaged + " is damaged: "), e.getMessage());   // found before anything is written
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(target), "the target is untouched");
        assertEquals(List.of(), leftovers());
    }

    /** A merge replaces the target's file: a store another connection holds open is refused, not pulled from under it. */
    @Test
    void aTargetStillOpenElsewhereIsRefused() throws Exception {
        Path target = store("target.db", "run-t", 3);
        Path source = store("source.db", "run-s", 3);
        try (ResultStore open = ResultStore.open(target)) {
            open.flush();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StoreMerge.mergeInto(List.of(at(source)), at(target)));
            assertTrue(e.getMessage().contains("is open in another process"), e.getMessage());
        }
        StoreMerge.Result r = StoreMerge.mergeInto(List.of(at(source)), at(target));
        assertEquals(3, r.episodesAdded());
        try (ResultStore merged = ResultStore.openReadOnly(at(target))) {
            assertEquals(2, merged.runs().size());
            assertEquals(new RunProgress(3, 3, 3), merged.progress("run-t"));
        }
        assertEquals(List.of(), leftovers());
    }

    /** A port out of range is one line in the user's terms, before the driver prints a warning and its internal URL. */
    @Test
    void aPostgresPortOutOfRangeIsOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StoreLocation.parse("postgresql://u@127.0.0.1:99999/db", null));
        assertEquals("--store 'postgresql://u@127.0.0.1:99999/db': the port must be between 1 and 65535, not 99999", e.getMessage());
    }
}
