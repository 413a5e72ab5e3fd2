package dev.openagent.watch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The official MCP servers the watch's tests run: today's from examples/mcp-servers, and an old filesystem server from npm. */
final class Servers {
    static final Path EXAMPLES = Path.of("..", "examples", "mcp-servers", "node_modules", ".bin").toAbsolutePath().normalize();
    static final Path FILESYSTEM = EXAMPLES.resolve("mcp-server-filesystem");
    static final Path MEMORY = EXAMPLES.resolve("mcp-server-memory");
    /** The filesystem server as published on 2025-03-28, pinned by its package-lock.json; installed here on first use. */
    static final Path OLD_FILESYSTEM_DIR = Path.of("src", "test", "npm", "server-filesystem-2025.3.28").toAbsolutePath();
    static final Path OLD_FILESYSTEM = OLD_FILESYSTEM_DIR.resolve("node_modules").resolve(".bin").resolve("mcp-server-filesystem");

    private Servers() {}

    /** Today's servers: CI installs them (.ci/run); elsewhere a test without them is skipped. */
    static void requireToday() {
        boolean installed = Files.isExecutable(FILESYSTEM) && Files.isExecutable(MEMORY);
        if (System.getenv("CI") != null) assertTrue(installed, "CI=true but .ci/run did not install examples/mcp-servers");
        assumeTrue(installed, "the MCP reference servers are not installed (npm ci --prefix examples/mcp-servers)");
    }

    /**
     * The old filesystem server: installed with {@code npm ci} from its lock file the first time (about 60 packages,
     * a few seconds), kept in node_modules beside it after that. Skipped without npm outside CI.
     */
    static Path oldFilesystem() throws IOException, InterruptedException {
        if (Files.isExecutable(OLD_FILESYSTEM)) return OLD_FILESYSTEM;
        Process npm;
        try {
            npm = new ProcessBuilder(List.of("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error", "--prefix", OLD_FILESYSTEM_DIR.toString()))
                    .redirectErrorStream(true).redirectOutput(OLD_FILESYSTEM_DIR.resolveSibling("npm-ci.log").toFile()).start();
        } catch (IOException e) {
            if (System.getenv("CI") != null) throw e;
            assumeTrue(false, "npm is not installed: " + e.getMessage());
            throw e;
        }
        boolean done = npm.waitFor(300, TimeUnit.SECONDS);
        if (!done) npm.destroyForcibly();
        assertTrue(done && npm.exitValue() == 0 && Files.isExecutable(OLD_FILESYSTEM),
                "npm ci --prefix " + OLD_FILESYSTEM_DIR + " failed: " + Files.readString(OLD_FILESYSTEM_DIR.resolveSibling("npm-ci.log")));
        return OLD_FILESYSTEM;
    }
}
