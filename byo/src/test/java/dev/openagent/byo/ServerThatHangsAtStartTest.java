package dev.openagent.byo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server that never answers initialize: reported after timeout_seconds (it took 60 s and more whatever the file
 * said), with the process it started killed too (it was left running after openagent exited), and the work folders
 * of the failed start deleted (they were never deleted); a negative timeout is refused.
 */
class ServerThatHangsAtStartTest {
    @TempDir
    Path dir;

    private static final String TASKS = "{\"id\": \"a\", \"query\": \"q\", \"gold\": [{\"tool\": \"lookup\", \"args\": {}}], \"answer\": \"x\"}\n";

    private static Set<Path> workFolders(String id) throws Exception {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("openagent-" + id + "-") && Files.isDirectory(p)).collect(Collectors.toSet());
        }
    }

    /** The test's bound is well under the 60 s the start used to be given; timeout_seconds is 2. */
    @Test
    @Timeout(value = 40, unit = TimeUnit.SECONDS)
    void itIsReportedAfterItsTimeoutWithItsChildKilledAndNothingLeft() throws Exception {
        String marker = "300." + ProcessHandle.current().pid();   // the child's command line: sleep 300.PID
        Files.writeString(dir.resolve("tasks.jsonl"), TASKS);
        Files.writeString(dir.resolve("env.yaml"), """
                id: hangs
                mcp:
                  command: ["python3", "-c", "import subprocess, time; subprocess.Popen(['sleep', '%s']); time.sleep(600)"]
                  timeout_seconds: 2
                tasks: tasks.jsonl
                """.formatted(marker));
        Set<Path> before = workFolders("hangs");
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertTrue(e.getMessage().contains("mcp.command: MCP server 'python3 -c") && e.getMessage().contains("did not start: no answer in time"), e.getMessage());
        List<ProcessHandle> left = ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains("sleep " + marker)).toList();
        assertEquals(List.of(), left, "the server's child is killed with it");
        assertEquals(before, workFolders("hangs"), "no work folder left behind");
        // The failed server's log stays, as one file the message names.
        java.util.regex.Matcher log = java.util.regex.Pattern.compile("\\(log: (.*)\\)").matcher(e.getMessage());
        assertTrue(log.find() && Files.isRegularFile(Path.of(log.group(1))), e.getMessage());
        Files.delete(Path.of(log.group(1)));
    }

    @Test
    void aTimeoutBelowOneSecondIsRefused() throws Exception {
        Files.writeString(dir.resolve("tasks.jsonl"), TASKS);
        Files.writeString(dir.resolve("env.yaml"), "id: neg\nmcp:\n  command: [\"python3\", \"x.py\"]\n  timeout_seconds: -5\ntasks: tasks.jsonl\n");
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertTrue(e.getMessage().matches(".*env\\.yaml:4: mcp\\.timeout_seconds: a timeout is a number of seconds above 0, not -5"), e.getMessage());
    }

    /** A file that fails after its work folder was made (here: a task naming no tool) leaves no folder either. */
    @Test
    void aFileThatFailsLeavesNoWorkFolder() throws Exception {
        Files.writeString(dir.resolve("tasks.jsonl"), TASKS.replace("lookup", "nope"));
        Files.writeString(dir.resolve("env.yaml"), """
                id: leaves
                tools:
                  lookup: {description: Looks up., response: "x"}
                tasks: tasks.jsonl
                """);
        Set<Path> before = workFolders("leaves");
        BadEnvironmentFile e = assertThrows(BadEnvironmentFile.class, () -> FileEnvironment.load(dir.resolve("env.yaml")));
        assertTrue(e.getMessage().contains("unknown tool 'nope'"), e.getMessage());
        assertEquals(before, workFolders("leaves"));
    }
}
