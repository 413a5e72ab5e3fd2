package dev.openagent.cli;

import dev.openagent.episode.InfrastructureException;
import dev.openagent.proxy.ProxyServer;
import dev.openagent.proxy.ProxySession;
import dev.openagent.proxy.SessionRecorder;
import dev.openagent.store.ResultStore;
import dev.openagent.proxy.Upstream;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

@Command(mixinStandardHelpOptions = true, name = "mcp",
        description = "Serve a real MCP server's tools under a shift: start CMD ARGS... (after --) or reach --upstream URL, and serve "
                + "its tools, shifted, over stdio or Streamable HTTP; calls are mapped back to the upstream's names and arguments.")
final class ProxyMcpCommand implements Runnable {
    @Option(names = "--shift", required = true, paramLabel = "SPEC",
            description = "The shift stack to apply: ID[:k=v,...], A+B (composed). tool.* and obs.* shifts apply (the others change a task, and a proxy session has none).")
    String shift;

    @Option(names = "--seed", description = "The session seed (the same seed shows the same names and shifts). Default: a random one, printed on stderr.")
    Long seed;

    @Option(names = "--upstream", paramLabel = "URL", description = "Reach the upstream MCP server over Streamable HTTP (http://host:port/mcp) instead of starting CMD.")
    String upstreamUrl;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Longest wait for one upstream request; longer means it hung (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    /** --stdio or --port, as serve mcp takes them. */
    @ArgGroup(exclusive = true, multiplicity = "1")
    ServeMcpCommand.Transport transport;

    /** With --port. */
    @Mixin
    Options.Listen listen = new Options.Listen(EnvServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--store", paramLabel = "PATH|URL", description = "Record each client session as an episode in this results store "
            + "(an SQLite file, or postgresql://USER@HOST:PORT/DB): one run per proxy process; `openagent report --store` shows it.")
    String store;

    @Mixin
    Options.StorePassword storePassword = new Options.StorePassword();

    @Parameters(paramLabel = "CMD", arity = "0..*", description = "The upstream MCP server's command line, after --.")
    List<String> command = List.of();

    @Override
    public void run() {
        ShiftStack stack = stack(Options.Shift.check(shift, "--shift"));
        if (command.isEmpty() == (upstreamUrl == null)) throw new Main.UserError("give the upstream command after -- or --upstream URL (one of them)");
        if (timeoutSeconds <= 0) throw new Main.UserError("--timeout must be > 0");
        long sessionSeed = seed != null ? seed : new SecureRandom().nextLong() & Long.MAX_VALUE;
        // stdout carries the protocol over stdio: anything else printed there would corrupt it.
        PrintStream protocol = System.out;
        if (transport.stdio) System.setOut(System.err);
        Path log;
        try {
            log = Files.createTempFile("openagent-proxy-", ".log");
        } catch (IOException e) {
            throw new Main.UserError("cannot create the upstream log: " + e.getMessage());
        }
        Upstream upstream;
        try {
            upstream = new Upstream(command.isEmpty() ? null : command, upstreamUrl, Duration.ofSeconds(timeoutSeconds), log);
        } catch (InfrastructureException e) {
            throw new Main.UserError("upstream: " + e.getMessage());
        }
        ProxySession session;
        try {
            session = new ProxySession(upstream, stack, sessionSeed);
        } catch (InfrastructureException e) {
            upstream.close();
            throw new Main.UserError("upstream: " + e.getMessage());
        } catch (RuntimeException e) {
            upstream.close();
            throw e;
        }
        SessionRecorder recorder = null;
        if (store != null) {
            try {
                recorder = SessionRecorder.toStore(ResultStore.open(storePassword.location(store)), upstream.describe(), stack);
            } catch (RuntimeException e) {
                upstream.close();
                throw e;
            }
        }
        ProxyServer server;
        if (transport.stdio) {
            server = ProxyServer.stdio(session, System.in, protocol);
        } else {
            BearerAuth auth = listen.auth();
            try {
                server = ProxyServer.http(session, listen.host, transport.port, auth, listen.maxBody);
            } catch (IOException e) {
                upstream.close();
                throw listen.cannotListen(transport.port, e);
            }
            listen.warnIfExposed("proxy mcp");
            System.out.println("proxy mcp listening on " + server.url());
            System.out.flush();
        }
        System.err.println("proxy mcp: " + session.tools().size() + " tools of " + upstream.describe() + " under " + stack.label()
                + " (seed " + sessionSeed + "); upstream log " + log);
        if (recorder != null) System.err.println("proxy mcp: recording sessions in " + recorder.describe());
        AtomicBoolean stopped = new AtomicBoolean();
        SessionRecorder recording = recorder;
        // The session ends when the client closes stdin, or on SIGTERM: it is recorded either way, before the JVM exits.
        Runnable stop = () -> {
            if (!stopped.compareAndSet(false, true)) return;
            server.close();
            upstream.close();
            if (recording != null) {
                recording.record(session);
                recording.close();
            }
            System.err.println("proxy mcp: stopped after " + session.calls().size() + " calls");
        };
        // SIGTERM or Ctrl-C: the hook stops the server and the upstream before the JVM exits.
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "proxy-mcp-shutdown"));
        try {
            server.awaitInputClosed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stop.run();
    }

    /** One stack: the proxy serves one tool list, so a spec that expands to several conditions (all, tier:X, a;b) is refused. */
    private static ShiftStack stack(String spec) {
        List<ShiftStack> stacks = ShiftSpec.expand(spec);
        if (stacks.size() != 1) {
            throw new Main.UserError("--shift '" + spec + "' names " + stacks.size() + " separate conditions; the proxy applies one stack (compose shifts with '+')");
        }
        return stacks.getFirst();
    }
}
