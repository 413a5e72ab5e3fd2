package dev.openagent.byo;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The examples and the official MCP reference servers they run (installed by `npm ci --prefix examples/mcp-servers`, which .ci/run does). */
final class ReferenceServers {
    static final Path EXAMPLES = Path.of("..", "examples").toAbsolutePath().normalize();
    static final Path FILESYSTEM = EXAMPLES.resolve("filesystem/env.yaml");
    static final Path MEMORY = EXAMPLES.resolve("memory/env.yaml");

    private ReferenceServers() {}

    /** On CI the servers must be installed; elsewhere the tests that need them are skipped without them. */
    static void require() {
        boolean installed = Files.isExecutable(EXAMPLES.resolve("mcp-servers/node_modules/.bin/mcp-server-filesystem"))
                && Files.isExecutable(EXAMPLES.resolve("mcp-servers/node_modules/.bin/mcp-server-memory"));
        if (System.getenv("CI") != null) assertTrue(installed, "CI=true but the MCP reference servers are not installed: .ci/run runs npm ci --prefix examples/mcp-servers");
        assumeTrue(installed, "the MCP reference servers are not installed (npm ci --prefix examples/mcp-servers)");
    }
}
