package dev.openagent.watch;

import dev.openagent.proxy.Upstream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real upgrade: the official filesystem server as published on 2025-03-28 and as of 2026-08-31 (both from npm),
 * each snapshotted by {@link Snapshot#of}, and every change between them named as docs/watch.md shows it.
 */
class WatchDiffOfARealUpgradeTest {
    static Snapshot before, after;

    @BeforeAll
    @Timeout(value = 360, unit = TimeUnit.SECONDS)
    static void snapshotBoth(@TempDir Path dir) throws Exception {
        Servers.requireToday();
        Path old = Servers.oldFilesystem();
        try (Upstream u = new Upstream(List.of(old.toString(), dir.toString()), null, Duration.ofSeconds(60), dir.resolve("old.log"))) {
            before = Snapshot.of(u);
        }
        try (Upstream u = new Upstream(List.of(Servers.FILESYSTEM.toString(), dir.toString()), null, Duration.ofSeconds(60), dir.resolve("new.log"))) {
            after = Snapshot.of(u);
        }
        // Through the file, as `watch record` writes it and `watch diff` reads it.
        before.write(dir.resolve("before.json"));
        after.write(dir.resolve("after.json"));
        before = Snapshot.read(dir.resolve("before.json"));
        after = Snapshot.read(dir.resolve("after.json"));
    }

    /** Each change as "kind tool -> nearest shift". */
    private static Set<String> named(List<Change> changes) {
        return changes.stream().map(c -> c.kind() + " " + c.tool() + " -> " + c.spec()).collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void theUpgradeIsNamedChangeByChange() {
        List<Change> changes = SurfaceDiff.between(before, after);
        Set<String> expected = new TreeSet<>(Set.of(
                // read_file is kept, says it is deprecated in favour of read_text_file, and takes head and tail
                "description-retired read_file -> obs.redirect",
                "parameters-changed read_file -> tool.schema-noise",
                "parameters-changed directory_tree -> tool.schema-noise",      // new excludePatterns
                "parameters-changed read_multiple_files -> tool.schema-noise", // paths described
                "parameters-changed edit_file -> tool.schema-noise",           // edits' items no longer closed
                "description-reworded search_files -> tool.schema-noise",
                "description-reworded list_allowed_directories -> tool.schema-noise",
                "tool-added read_text_file -> tool.set-change",
                "tool-added read_media_file -> tool.set-change",
                "tool-lookalike-added list_directory_with_sizes -> tool.distractors"));
        // Every old tool declares an output schema now, and no longer closes its parameters (additionalProperties: false).
        for (String t : List.of("read_file", "read_multiple_files", "write_file", "edit_file", "create_directory", "list_directory", "directory_tree",
                "move_file", "search_files", "get_file_info", "list_allowed_directories")) {
            expected.add("output-schema-changed " + t + " -> obs.schema-drift");
            if (!t.equals("list_allowed_directories")) expected.add("parameters-changed " + t + " -> tool.schema-noise");
        }
        assertEquals(expected, named(changes), String.join("\n", changes.stream().map(Change::line).toList()));
        Change retired = changes.stream().filter(c -> c.kind().equals("description-retired")).findFirst().orElseThrow();
        assertTrue(retired.after().asText().contains("DEPRECATED: Use read_text_file instead"), retired.after().toString());
        assertEquals("interaction", retired.toJson().path("tier").asText());
        Change head = changes.stream().filter(c -> c.kind().equals("parameters-changed") && c.tool().equals("read_file")).findFirst().orElseThrow();
        assertTrue(head.detail().contains("new head, tail"), head.detail());
    }

    @Test
    void aDowngradeRemovesTheNewTools() {
        Set<String> removed = SurfaceDiff.between(after, before).stream().filter(c -> c.kind().equals("tool-removed"))
                .map(c -> c.tool() + " -> " + c.spec()).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(new TreeSet<>(Set.of("read_text_file -> tool.removal", "read_media_file -> tool.removal", "list_directory_with_sizes -> tool.removal")), removed);
    }

    @Test
    void theSameServerTwiceIsNoDrift() {
        assertEquals(List.of(), SurfaceDiff.between(after, after));
        assertEquals(List.of(), SurfaceDiff.between(before, before));
    }
}
