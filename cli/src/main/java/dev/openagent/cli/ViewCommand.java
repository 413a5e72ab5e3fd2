package dev.openagent.cli;

import dev.openagent.UserInputException;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.view.ViewServer;
import dev.openagent.store.ResultStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;

@Command(name = "view", mixinStandardHelpOptions = true, description = {
        "Browse a results store in the browser, read-only (docs/view.md): runs (a running one live), the tier x shift results,",
        "episodes filtered and paged, transcripts, and the diff of a shifted episode against its static twin.",
        "Listens on 127.0.0.1 by default; with --token-env, open the printed address once with ?token=... ."})
final class ViewCommand implements Runnable {
    @Mixin
    Options.Store store;

    @Option(names = "--host", paramLabel = "HOST", description = "Address to bind (default: ${DEFAULT-VALUE}).")
    String host = "127.0.0.1";

    @Option(names = "--port", defaultValue = "8780", paramLabel = "PORT", description = "Port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--token-env", paramLabel = "NAME",
            description = "Require the token held in this environment variable (a browser passes it once as ?token=..., then keeps a cookie).")
    String tokenEnv;

    @Override
    public void run() {
        String token = null;
        if (tokenEnv != null) {
            token = System.getenv(tokenEnv);
            if (token == null || token.isBlank()) throw new Main.UserError("--token-env " + tokenEnv + ": the environment variable is unset or empty");
            token = token.strip();
        }
        if (!HttpService.isLoopback(host) && token == null) {
            System.err.println("view: WARNING: listening on " + host + " without --token-env: anyone who can reach this port can read the store");
        }
        ResultStore results = ResultStore.openReadOnly(store.location());
        ViewServer server;
        try {
            server = ViewServer.start(results, host, port, token);
        } catch (IOException e) {
            results.close();
            throw new UserInputException("cannot listen on " + host + ":" + port + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            results.close();
            throw e;
        }
        System.out.println("view of " + results.location() + " at " + server.baseUrl() + "/" + (token == null ? "" : "?token=<the token in " + tokenEnv + ">"));
        System.out.flush();
        ServeCommand.serveUntilShutdown(() -> {
            server.close();
            results.close();
        }, "view");
    }
}
