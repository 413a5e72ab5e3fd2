package dev.openagent.cli;

import dev.openagent.json.Json;
import dev.openagent.watch.Matrix;
import dev.openagent.watch.Watcher;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

@Command(mixinStandardHelpOptions = true, name = "matrix",
        description = "The watch's confusion matrix (docs/watch.md): every tool.* and obs.* shift, applied by the proxy at severities 1-3 to the official "
                + "filesystem and memory servers under a scripted client's traffic, and unshifted sessions that must raise no event.")
final class WatchMatrixCommand implements Runnable {
    @Option(names = "--servers", defaultValue = "examples/mcp-servers/node_modules/.bin", paramLabel = "DIR",
            description = "The folder holding mcp-server-filesystem and mcp-server-memory (default: ${DEFAULT-VALUE}; npm ci --prefix examples/mcp-servers).")
    Path servers;

    @Option(names = "--seeds", defaultValue = "2", description = "Sessions per shift, severity and server (default: ${DEFAULT-VALUE}).")
    int seeds;

    @Option(names = "--calls", defaultValue = "60", description = "Calls per session (default: ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--clean", defaultValue = "200", description = "Unshifted sessions that must raise no event (default: ${DEFAULT-VALUE}).")
    int clean;

    @Option(names = "--learn", defaultValue = "30", description = "Unshifted sessions per server the baseline is learnt from (default: ${DEFAULT-VALUE}).")
    int learn;

    @Option(names = "--explain", description = "Print the events of every session whose applied shift was not ranked first.")
    boolean explain;

    @Option(names = "--out", paramLabel = "FILE", description = "Write the matrix as JSON here too.")
    Path out;

    @Override
    public void run() {
        if (seeds < 1 || calls < 1 || clean < 0 || learn < 1) throw new Main.UserError("--seeds, --calls and --learn must be >= 1, --clean >= 0");
        if (!Files.isExecutable(servers.resolve("mcp-server-filesystem")) || !Files.isExecutable(servers.resolve("mcp-server-memory"))) {
            throw new Main.UserError(servers + " holds no mcp-server-filesystem and mcp-server-memory (run `npm ci --prefix examples/mcp-servers`)");
        }
        Path work;
        try {
            work = Files.createTempDirectory("openagent-watch-matrix-");
        } catch (IOException e) {
            throw new Main.UserError("cannot create a work folder: " + e.getMessage());
        }
        Matrix.Result r = Matrix.run(servers.toAbsolutePath(), work, seeds, calls, clean, learn, Watcher.ALPHA, explain, System.err);
        System.out.println("| shift | tier | severity | sessions | detected | right tier first | shift ranked first | top shift |");
        System.out.println("|---|---|---|---|---|---|---|---|");
        int n2 = 0, d2 = 0, t2 = 0, f2 = 0;
        for (Matrix.Row row : r.rows()) {
            System.out.println("| " + row.shift() + " | " + row.tier() + " | " + row.severity() + " | " + row.sessions() + " | " + row.detected() + " | "
                    + row.rightTier() + " | " + row.first() + " | " + row.tops() + " |");
            if (row.severity() >= 2) {
                n2 += row.sessions();
                d2 += row.detected();
                t2 += row.rightTier();
                f2 += row.first();
            }
        }
        System.out.printf("%nseverity >= 2: %d sessions, detected %d (%.1f%%), right tier first %d (%.1f%%), applied shift ranked first %d (%.1f%%)%n",
                n2, d2, 100.0 * d2 / Math.max(1, n2), t2, 100.0 * t2 / Math.max(1, n2), f2, 100.0 * f2 / Math.max(1, n2));
        System.out.println("unshifted: " + r.cleanSessions() + " sessions, " + r.cleanCalls() + " calls, " + r.falseEvents() + " events");
        r.falseExamples().forEach(e -> System.out.println("  false event: " + e));
        r.skipped().forEach((k, v) -> System.out.println("not applicable: " + k + ": " + v));
        if (out != null) {
            try {
                Files.writeString(out, Json.pretty(r.toJson()) + "\n");
            } catch (IOException e) {
                throw new Main.UserError("cannot write " + out + ": " + e.getMessage());
            }
        }
    }
}
