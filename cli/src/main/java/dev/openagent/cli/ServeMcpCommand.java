package dev.openagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.JsonlEpisodeSink;
import dev.openagent.server.StoreEpisodeSink;
import dev.openagent.store.ResultStore;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.mcp.McpEnvServer;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

@Command(mixinStandardHelpOptions = true, name = "mcp", description = "Serve a (shifted) environment's tools as an MCP server; each finished episode is recorded with its score (see docs/serve-mcp.md).")
final class ServeMcpCommand implements Runnable {
    @Mixin
    Options.Env env;

    @Mixin
    Options.Shift shift;

    static final class Which {
        @Option(names = "--task", description = "First task index (the i-th task of `openagent run --seed RUN_SEED`); later episodes take the next indices. Default 0.")
        Integer task;

        @Option(names = "--seed", description = "First task seed; later episodes take seed+1, seed+2...")
        Long seed;
    }

    @ArgGroup(exclusive = true)
    Which which;

    @Mixin
    Options.SplitOption split;

    @Option(names = "--difficulty", defaultValue = "0", description = "Difficulty level; 0 lets each task choose (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Option(names = "--run-seed", defaultValue = "1", description = "The run seed task indices refer to (default: ${DEFAULT-VALUE}).")
    long runSeed;

    static final class Transport {
        @Option(names = "--stdio", required = true, description = "Speak MCP on stdin/stdout; exit when stdin closes.")
        boolean stdio;

        @Option(names = "--port", required = true, description = "Serve stateless Streamable HTTP at http://HOST:PORT/mcp (0 picks a free port).")
        Integer port;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Transport transport;

    /** With --port. */
    @Mixin
    Options.Listen listen = new Options.Listen(EnvServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--store", description = "Results store to record the episodes in, as one run (default: runs/openagent.db).")
    Path store;

    @Option(names = "--out", description = "Record episodes as DIR/trajectories.jsonl instead of in the results store.")
    Path out;

    private EpisodeSink storeSink(EnvChoice choice, TaskChoice tasks, int first, Long seed) {
        String runId = "mcp-" + env.id + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")) + "-"
                + java.util.HexFormat.of().toHexDigits((short) new java.security.SecureRandom().nextInt());
        ObjectNode config = Json.object().put("server", "mcp").put("env", env.id).put("shift", choice.shiftLabel())
                .put("split", tasks.split().id()).put("difficulty", tasks.difficulty()).put("run_seed", tasks.runSeed());
        if (seed != null) config.put("first_seed", seed);
        else config.put("first_task", first);
        ResultStore results = ResultStore.open(store != null ? store : ResultStore.DEFAULT);
        String name = "serve mcp --env " + env.id + " --shift " + choice.shiftLabel();
        return new StoreEpisodeSink(results, true, runId, name, config, choice.shifts());
    }

    @Override
    public void run() {
        Options.Env.requireTasks(env.environment(difficulty), split.split());
        EnvChoice choice = EnvChoice.of(env.catalog(), env.id, shift.spec());
        int first = which == null || which.task == null ? 0 : which.task;
        if (first < 0) throw new Main.UserError("--task must be >= 0");
        Long seed = which == null ? null : which.seed;
        TaskChoice tasks = new TaskChoice(split.split(), difficulty, runSeed);
        if (store != null && out != null) throw new Main.UserError("give --store or --out, not both");
        BearerAuth auth = transport.stdio ? BearerAuth.NONE : listen.auth();
        EpisodeSink sink = out != null ? new JsonlEpisodeSink(out) : storeSink(choice, tasks, first, seed);
        McpEnvServer.Options options = new McpEnvServer.Options(choice, tasks, first, seed, sink);
        McpEnvServer server;
        if (transport.stdio) {
            // stdout carries the protocol: anything else printed there would corrupt it.
            PrintStream protocol = System.out;
            System.setOut(System.err);
            server = McpEnvServer.stdio(options, System.in, protocol);
        } else {
            try {
                server = McpEnvServer.http(options, listen.host, transport.port, auth, listen.maxBody);
            } catch (IOException e) {
                sink.close();
                throw listen.cannotListen(transport.port, e);
            }
            listen.warnIfExposed("serve mcp");
            System.out.println("serve mcp listening on " + server.url());
            System.out.flush();
        }
        System.err.println("serve mcp: " + env.id + " (shift " + choice.shiftLabel() + ", " + tasks.split().id()
                + " split), episodes recorded to " + sink.describe());
        // On SIGTERM or Ctrl-C the hook stops the server and flushes the episodes before the JVM exits.
        ServeCommand.serveUntilInputClosed(server::awaitInputClosed, "serve-mcp", () -> {
            server.close();
            sink.close();
            System.err.println("serve mcp: stopped after " + server.host().recorded() + " recorded episodes");
        });
    }
}
