package dev.openagent.cli;

import dev.openagent.sandbox.Split;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

@Command(mixinStandardHelpOptions = true, name = "env", description = "Serve environments over the OpenEnv protocol (WebSocket /ws, HTTP /reset /step /state) for RL trainers (see docs/serve-env.md).")
final class ServeEnvCommand implements Runnable {
    @Option(names = "--host", defaultValue = EnvServer.Config.DEFAULT_HOST, description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "8765", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--token-env", paramLabel = "NAME", description = "Require 'Authorization: Bearer <token>', the token read from this environment variable.")
    String tokenEnv;

    @Option(names = "--max-sessions", defaultValue = "" + EnvServer.Config.DEFAULT_MAX_SESSIONS, description = "Most sessions at once (default: ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(names = "--idle-ttl", defaultValue = "600", paramLabel = "SECONDS", description = "Close sessions idle this long (default: ${DEFAULT-VALUE}).")
    long idleTtl;

    @Option(names = "--max-body", defaultValue = "" + EnvServer.Config.DEFAULT_MAX_BODY, paramLabel = "BYTES", description = "Largest request body (default: ${DEFAULT-VALUE}).")
    long maxBody;

    @Option(names = "--allow-oracle", description = "Observations carry the oracle's next action as 'oracle' (privileged: it solves the task; for testing clients).")
    boolean allowOracle;

    @Option(names = "--env", defaultValue = "poi", description = "Environment a reset uses when its data names none (default: ${DEFAULT-VALUE}).")
    String env;

    @Option(names = "--shift", defaultValue = "none", description = "Shift stack a reset uses when its data names none (default: ${DEFAULT-VALUE}).")
    String shift;

    @Option(names = "--split", defaultValue = "train", description = "Default split, train or test (default: ${DEFAULT-VALUE}).")
    String split;

    @Option(names = "--difficulty", defaultValue = "0", description = "Default difficulty; 0 lets each task choose (default: ${DEFAULT-VALUE}).")
    int difficulty;

    @Option(names = "--run-seed", defaultValue = "1", description = "Default run seed that task indices refer to (default: ${DEFAULT-VALUE}).")
    long runSeed;

    @Override
    public void run() {
        if (idleTtl < 1) throw new Main.UserError("--idle-ttl must be at least 1 second");
        BearerAuth auth = BearerAuth.fromEnv(tokenEnv);
        EnvServer.Defaults defaults = new EnvServer.Defaults(env, shift, Split.parse(split), difficulty, runSeed);
        EnvServer server;
        try {
            server = EnvServer.start(new EnvServer.Config(host, port, auth, maxSessions, Duration.ofSeconds(idleTtl), maxBody, allowOracle, defaults));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        }
        ServeCommand.warnIfExposed("serve env", host, auth.enabled());
        System.out.println("serve env listening on " + server.baseUrl());
        System.out.flush();
        System.err.printf("serve env: OpenEnv WebSocket at %s; default %s under shift %s (%s split); max %d sessions, idle TTL %d s, "
                        + "body cap %d bytes, oracle %s, token %s%n", server.webSocketUrl(), env, shift, split,
                maxSessions, idleTtl, maxBody, allowOracle ? "ON" : "off", auth.enabled() ? "required" : "off");
        ServeCommand.serveUntilShutdown(server, "serve env");
    }
}
