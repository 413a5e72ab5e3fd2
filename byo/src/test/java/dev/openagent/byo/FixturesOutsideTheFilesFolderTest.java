package dev.openagent.byo;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Episodes;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * reset.copy that leaves the environment file's folder (a path with .., a symbolic link to outside, a link inside the
 * fixtures to outside) is refused at reset.copy (a copy of /etc landed in a work folder); a fixture folder that is a
 * link inside the file's folder works (it gave "cannot prepare the workdir X: X" under mcp.command).
 */
class FixturesOutsideTheFilesFolderTest {
    @TempDir
    Path root;

    /** An environment in root/env whose inline tool answers with the workdir's path, copying {@code copy}. */
    private Path file(String copy) throws Exception {
        Path dir = Files.createDirectories(root.resolve("env"));
        Files.writeString(dir.resolve("tasks.jsonl"), "{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"where\", \"args\": {}}], \"answer\": \"ok\"}\n");
        return Files.writeString(dir.resolve("env.yaml"), """
                id: fixtures
                tools:
                  where: {description: Says ok., response: "ok"}
                reset: {copy: "%s"}
                tasks: tasks.jsonl
                """.formatted(copy));
    }

    private String error(String copy) throws Exception {
        Path f = file(copy);
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(f));
        assertEquals(1, e.getMessage().lines().count());
        return e.getMessage();
    }

    @Test
    void aPathLeavingTheFolderIsRefused() throws Exception {
        Files.createDirectories(root.resolve("outside"));
        String m = error("../outside/");
        assertTrue(m.matches(".*env\\.yaml:4: reset\\.copy: the fixtures must be inside the environment file's folder .*'\\.\\./outside/' leaves it"), m);
        m = error("../../../../../../../../etc/");
        assertTrue(m.contains("reset.copy: the fixtures must be inside"), m);
    }

    @Test
    void linksToOutsideAreRefused() throws Exception {
        Path outside = Files.createDirectories(root.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "s");
        Path dir = Files.createDirectories(root.resolve("env"));
        Files.createSymbolicLink(dir.resolve("linked"), outside);
        String m = error("linked/");
        assertTrue(m.contains("reset.copy: 'linked/' is a symbolic link to " + outside.toRealPath() + ", outside the environment file's folder"), m);
        Path fixtures = Files.createDirectories(dir.resolve("fixtures"));
        Files.createSymbolicLink(fixtures.resolve("peek.txt"), outside.resolve("secret.txt"));
        m = error("fixtures/");
        assertTrue(m.contains("reset.copy: the fixtures hold a symbolic link to a place outside the environment file's folder: peek.txt -> "), m);
    }

    @Test
    void aLinkedFixtureFolderInsideTheFolderIsCopied() throws Exception {
        Path dir = Files.createDirectories(root.resolve("env"));
        Path real = Files.createDirectories(dir.resolve("data"));
        Files.writeString(real.resolve("a.txt"), "A");
        Files.createSymbolicLink(real.resolve("b.txt"), real.resolve("a.txt"));
        Files.createSymbolicLink(dir.resolve("fixtures"), real);
        try (FileEnvironment env = FileEnvironment.load(file("fixtures/"))) {
            var t = Episodes.run(env.create(), new OracleAgent(), new TaskRequest(Split.TEST, 1, 0));
            assertTrue(t.outcome().success(), t.outcome().detail());
            Path work;
            try (var workers = Files.list(env.workFolder())) {
                work = workers.findFirst().orElseThrow().resolve("work");
            }
            assertEquals("A", Files.readString(work.resolve("a.txt")));
            assertEquals("A", Files.readString(work.resolve("b.txt")));
        }
    }
}
