package dev.openagent.cli;

import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.time.Duration;

@Command(mixinStandardHelpOptions = true, name = "env", description = {
        "Serve environments over the OpenEnv protocol (WebSocket /ws, HTTP /reset /step /state) for RL trainers (see docs/serve-env.md).",
        "--env, --shift, --split, --difficulty and --run-seed are what a reset uses when its data names none."})
final class ServeEnvCommand implements Runnable {
    @Mixin
    Options.Listen listen = new Options.Listen(EnvServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--port", defaultValue = "8765", paramLabel = "PORT", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--max-sessions", defaultValue = "" + EnvServer.Config.DEFAULT_MAX_SESSIONS, paramLabel = "N", description = "Most sessions at once (default: ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(names = "--idle-ttl", defaultValue = "600", paramLabel = "SECONDS", description = "Close sessions idle this long (default: ${DEFAULT-VALUE}).")
    long idleTtl;

    @Option(names = "--allow-oracle", description = "Observations carry the oracle's next action as 'oracle' (privileged: it solves the task; for testing clients).")
    boolean allowOracle;

    @Mixin
    Options.Env env;

    @Mixin
    Options.Shift shift;

    /** Trainers train: resets draw from the train split unless told otherwise. */
    @Mixin
    Options.SplitOption split = new Options.SplitOption("train");

    @Option(names = "--difficulty", defaultValue = "0", paramLabel = "N", description = "Default difficulty; 0 lets each task choose (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Option(names = "--run-seed", defaultValue = "1", paramLabel = "SEED", description = "Default run seed that task indices refer to (default: ${DEFAULT-VALUE}).")
    long runSeed;

    @Override
    public void run() {
        if (idleTtl < 1) throw new Main.UserError("--idle-ttl must be at least 1 second");
        BearerAuth auth = listen.auth();
        dev.openagent.sandbox.Environment environment = env.environment(difficulty);
        Options.Env.requireTasks(environment, split.split());
        String envId = environment.id();
        EnvServer.Defaults defaults = new EnvServer.Defaults(envId, shift.spec(), split.split(), difficulty, runSeed);
        EnvServer server;
        try {
            server = EnvServer.start(new EnvServer.Config(listen.host, port, auth, maxSessions, Duration.ofSeconds(idleTtl), listen.maxBody,
                    allowOracle, defaults, env.catalog()));
        } catch (IOException e) {
            throw listen.cannotListen(port, e);
        }
        listen.warnIfExposed("serve env");
        System.out.println("serve env listening on " + server.baseUrl());
        System.out.flush();
        System.err.printf("serve env: OpenEnv WebSocket at %s; default %s under shift %s (%s split); max %d sessions, idle TTL %d s, "
                        + "body cap %d bytes, oracle %s, token %s%n", server.webSocketUrl(), envId, defaults.shift(), defaults.split().id(),
                maxSessions, idleTtl, listen.maxBody, allowOracle ? "ON" : "off", auth.enabled() ? "required" : "off");
        ServeCommand.serveUntilShutdown(server, "serve env");
    }
}
