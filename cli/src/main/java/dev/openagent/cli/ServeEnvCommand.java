package dev.openagent.cli;

import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.time.Duration;

@Command(mixinStandardHelpOptions = true, name = "env", description = "Serve environments over HTTP + JSON for external RL trainers (see docs/serve-env.md).")
final class ServeEnvCommand implements Runnable {
    @Mixin
    Options.Listen listen = new Options.Listen(EnvServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--port", defaultValue = "8765", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--max-sessions", defaultValue = "" + EnvServer.Config.DEFAULT_MAX_SESSIONS, description = "Most sessions at once (default: ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(names = "--idle-ttl", defaultValue = "600", paramLabel = "SECONDS", description = "Close sessions idle this long (default: ${DEFAULT-VALUE}).")
    long idleTtl;

    @Option(names = "--allow-oracle", description = "Answer GET /v1/sessions/{id}/oracle with the oracle's next action (privileged: it solves the task; for testing clients).")
    boolean allowOracle;

    @Override
    public void run() {
        if (idleTtl < 1) throw new Main.UserError("--idle-ttl must be at least 1 second");
        BearerAuth auth = listen.auth();
        EnvServer server;
        try {
            server = EnvServer.start(new EnvServer.Config(listen.host, port, auth, maxSessions, Duration.ofSeconds(idleTtl), listen.maxBody,
                    allowOracle));
        } catch (IOException e) {
            throw listen.cannotListen(port, e);
        }
        listen.warnIfExposed("serve env");
        System.out.println("serve env listening on " + server.baseUrl());
        System.out.flush();
        System.err.printf("serve env: max %d sessions, idle TTL %d s, body cap %d bytes, oracle %s, token %s%n",
                maxSessions, idleTtl, listen.maxBody, allowOracle ? "ON" : "off", auth.enabled() ? "required" : "off");
        ServeCommand.serveUntilShutdown(server, "serve env");
    }
}
