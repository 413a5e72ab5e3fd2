package dev.openagent.cli;

import dev.openagent.episode.InfrastructureException;
import dev.openagent.proxy.Upstream;
import dev.openagent.watch.Snapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

@Command(mixinStandardHelpOptions = true, name = "record",
        description = "Snapshot an MCP server's surface (tools with their descriptions, input and output schemas; resources; prompts) into a "
                + "versioned JSON file, without calling any tool: start CMD ARGS... (after --) or reach --upstream URL. With --window N, serve "
                + "the server's tools unshifted (--stdio or --port, as `proxy mcp`) and learn its traffic from the first N calls too.")
final class WatchRecordCommand implements java.util.concurrent.Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "FILE", description = "Where to write the snapshot (JSON).")
    Path out;

    @Option(names = "--upstream", paramLabel = "URL", description = "Reach the MCP server over Streamable HTTP (http://host:port/mcp) instead of starting CMD.")
    String upstreamUrl;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS", description = "Longest wait for one request to the server (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    @Option(names = "--window", paramLabel = "N", description = "Learn the traffic of the first N calls too: the server is served unshifted "
            + "through the proxy (--stdio or --port) and the snapshot is written after N calls.")
    Integer window;

    @Option(names = "--stdio", description = "With --window: serve MCP on stdin/stdout.")
    boolean stdio;

    @Option(names = "--port", paramLabel = "P", description = "With --window: serve Streamable HTTP at http://127.0.0.1:P/mcp.")
    Integer port;

    @Parameters(paramLabel = "CMD", arity = "0..*", description = "The MCP server's command line, after --.")
    List<String> command = List.of();

    @Override
    public Integer call() {
        if (command.isEmpty() == (upstreamUrl == null)) throw new Main.UserError("give the server's command after -- or --upstream URL (one of them)");
        if (window != null) return throughTheProxy();
        if (stdio || port != null) throw new Main.UserError("--stdio and --port go with --window (a snapshot without traffic serves nothing)");
        if (timeoutSeconds <= 0) throw new Main.UserError("--timeout must be > 0");
        Path log;
        try {
            log = Files.createTempFile("openagent-watch-", ".log");
        } catch (IOException e) {
            throw new Main.UserError("cannot create the server log: " + e.getMessage());
        }
        Snapshot snapshot;
        try (Upstream upstream = new Upstream(command.isEmpty() ? null : command, upstreamUrl, Duration.ofSeconds(timeoutSeconds), log)) {
            snapshot = Snapshot.of(upstream);
        } catch (InfrastructureException e) {
            throw new Main.UserError("upstream: " + e.getMessage());
        }
        snapshot.write(out);
        System.err.println("watch record: " + snapshot.tools().size() + " tools, " + snapshot.resources().size() + " resources, "
                + snapshot.templates().size() + " resource templates, " + snapshot.prompts().size() + " prompts of " + snapshot.upstream() + " in " + out);
        return 0;
    }

    /** The traffic is learnt where it passes: {@code proxy mcp --shift none --watch-record FILE --window N}. */
    private int throughTheProxy() {
        if (stdio == (port != null)) throw new Main.UserError("--window serves the server's tools while it learns: give --stdio or --port P");
        List<String> args = new java.util.ArrayList<>(List.of("proxy", "mcp", "--shift", "none", "--watch-record", out.toString(), "--window", String.valueOf(window),
                "--timeout", String.valueOf(timeoutSeconds)));
        if (stdio) args.add("--stdio");
        else args.addAll(List.of("--port", String.valueOf(port)));
        if (upstreamUrl != null) args.addAll(List.of("--upstream", upstreamUrl));
        else {
            args.add("--");
            args.addAll(command);
        }
        return Main.execute(args.toArray(String[]::new));
    }
}
