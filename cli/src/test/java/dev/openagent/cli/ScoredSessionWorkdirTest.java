package dev.openagent.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * proxy mcp --env FILE --task ID with a file that has reset.copy empties and refills --workdir before each scored
 * session: so --workdir must be given (not the current folder by default), and may not hold the file or its fixtures.
 */
class ScoredSessionWorkdirTest {
    @TempDir
    Path dir;

    @Test
    void theFolderThatIsRefilledMustBeGivenAndOfItsOwn() throws Exception {
        Path env = InlineEnvFile.write(dir.resolve("env"), "scored-workdir", InlineEnvFile.SOLVABLE);
        Files.createDirectories(dir.resolve("env/fixtures"));
        Files.writeString(env, Files.readString(env) + "reset: {copy: fixtures/}\n");
        String[] proxy = {"proxy", "mcp", "--shift", "tool.identity-erasure", "--stdio", "--env", env.toString(), "--task", "t1"};
        CliTest.assertBad(CliTest.run(concat(proxy, "--", "/bin/true")), "--task with a file that has reset.copy needs --workdir DIR");
        CliTest.assertBad(CliTest.run(concat(proxy, "--workdir", dir.toString(), "--", "/bin/true")), "is emptied before every scored session: give a folder of its own");
        CliTest.assertBad(CliTest.run(concat(proxy, "--workdir", dir.resolve("env").toString(), "--", "/bin/true")), "is emptied before every scored session");
    }

    private static String[] concat(String[] head, String... tail) {
        String[] out = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, out, head.length, tail.length);
        return out;
    }
}
