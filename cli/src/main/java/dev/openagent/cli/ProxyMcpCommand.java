package dev.openagent.cli;

import dev.openagent.episode.InfrastructureException;
import dev.openagent.byo.BadEnvironmentFile;
import dev.openagent.byo.FileEnvironment;
import dev.openagent.proxy.ProxyServer;
import dev.openagent.sandbox.ToolFacts;
import dev.openagent.proxy.ProxySession;
import dev.openagent.proxy.SessionPool;
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
import java.util.Map;

@Command(mixinStandardHelpOptions = true, name = "mcp",
        description = "Serve a real MCP server's tools under a shift: start CMD ARGS... (after --) or reach --upstream URL, and serve "
                + "its tools, shifted, over stdio or Streamable HTTP; calls are mapped back to the upstream's names and arguments.")
final class ProxyMcpCommand implements Runnable {
    @Option(names = "--shift", required = true, paramLabel = "SPEC",
            description = "The shift stack to apply: ID[:k=v,...], A+B (composed); or several conditions (tier:X, all, A;B), of which each session draws one "
                    + "by its seed. tool.* and obs.* shifts apply (the others change a task, and a proxy session has none).")
    String shift;

    @Option(names = "--seed", description = "The session seed (the same seed shows the same names and shifts). Default: a random one, printed on stderr.")
    Long seed;

    @Option(names = "--upstream", paramLabel = "URL", description = "Reach the upstream MCP server over Streamable HTTP (http://host:port/mcp) instead of starting CMD.")
    String upstreamUrl;

    @Option(names = "--timeout", defaultValue = "30", paramLabel = "SECONDS",
            description = "Longest wait for one upstream request; longer means it hung (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds;

    /** --stdio or --port: the proxy's HTTP sessions are stateful, unlike serve mcp's, so its help says so. */
    static final class Transport {
        @Option(names = "--stdio", required = true, description = "Speak MCP on stdin/stdout (one client session); exit when stdin closes, "
                + "recording the session and stopping the upstream.")
        boolean stdio;

        @Option(names = "--port", required = true, description = "Serve Streamable HTTP at http://HOST:PORT/mcp (0 picks a free port), "
                + "a session per client (Mcp-Session-Id), with a GET event stream for the upstream's notifications.")
        Integer port;
    }

    @ArgGroup(exclusive = true, multiplicity = "1")
    Transport transport;

    /** With --port. */
    @Mixin
    Options.Listen listen = new Options.Listen(EnvServer.Config.DEFAULT_MAX_BODY);

    @Option(names = "--store", paramLabel = "PATH|URL", description = "Record each client session as an episode in this results store "
            + "(an SQLite file, or postgresql://USER@HOST:PORT/DB): one run per proxy process; `openagent report --store` shows it.")
    String store;

    @Mixin
    Options.StorePassword storePassword = new Options.StorePassword();

    @Option(names = "--env", paramLabel = "FILE", description = "An environment file (docs/bring-your-own.md) whose facts about tools "
            + "(read_only, after, record_of, person_name) the upstream's tools of the same names take, so the shifts that need them apply.")
    Path envFile;

    @Option(names = "--task", paramLabel = "ID", description = "With --env: score each session by this task of the file: its state checks call "
            + "the upstream's tools when the session ends, its answer checks judge what the agent gives to the added submit_answer tool.")
    String taskId;

    @Option(names = "--workdir", paramLabel = "DIR", description = "With --task: what {workdir} in the file's tasks stands for, the folder the "
            + "upstream works in (default: the current directory).")
    Path workdir;

    @Option(names = "--max-sessions", defaultValue = "16", paramLabel = "N",
            description = "With --port: the most client sessions open at once (default: ${DEFAULT-VALUE}).")
    int maxSessions;

    @Option(names = "--idle", defaultValue = "600", paramLabel = "SECONDS",
            description = "With --port: a session unused this long is ended and recorded (default: ${DEFAULT-VALUE}).")
    int idleSeconds;

    @Option(names = "--watch-record", paramLabel = "FILE", description = "Learn the upstream's surface and traffic (docs/watch.md) and write the "
            + "baseline to FILE after --window calls, or when the proxy stops.")
    Path watchRecord;

    @Option(names = "--window", paramLabel = "N", description = "With --watch-record: the calls the baseline is learnt from (default: every call until the proxy stops).")
    Integer window;

    @Option(names = "--watch", paramLabel = "BASELINE", description = "Compare the upstream's tool lists and traffic with a baseline (`watch record`, "
            + "--watch-record) and report each change in the catalog's terms: on stderr, in --watch-events, at /metrics (with --port), to --webhook.")
    Path watchBaseline;

    @Option(names = "--watch-events", paramLabel = "FILE", description = "With --watch: append each event to FILE as a JSON line.")
    Path watchEvents;

    @Option(names = "--webhook", paramLabel = "URL", description = "With --watch: POST each event (JSON) to URL, trying 3 times.")
    java.net.URI webhook;

    @Parameters(paramLabel = "CMD", arity = "0..*", description = "The upstream MCP server's command line, after --.")
    List<String> command = List.of();

    @Override
    public void run() {
        String spec = Options.Shift.check(shift, "--shift");
        List<ShiftStack> stacks = ShiftSpec.expand(spec);
        if (command.isEmpty() == (upstreamUrl == null)) throw new Main.UserError("give the upstream command after -- or --upstream URL (one of them)");
        if (timeoutSeconds <= 0) throw new Main.UserError("--timeout must be > 0");
        if (maxSessions < 1) throw new Main.UserError("--max-sessions must be >= 1");
        if (idleSeconds <= 0) throw new Main.UserError("--idle must be > 0");
        if (watchRecord != null && watchBaseline != null) throw new Main.UserError("--watch-record and --watch are two runs: record a baseline first, then watch against it");
        if (window != null && watchRecord == null) throw new Main.UserError("--window goes with --watch-record");
        if ((watchEvents != null || webhook != null) && watchBaseline == null) throw new Main.UserError("--watch-events and --webhook go with --watch BASELINE");
        if (webhook != null && !("http".equals(webhook.getScheme()) || "https".equals(webhook.getScheme()))) throw new Main.UserError("--webhook must be an http:// or https:// URL");
        // A bad baseline is one line before anything starts.
        dev.openagent.watch.Snapshot baseline = watchBaseline == null ? null : dev.openagent.watch.Snapshot.read(watchBaseline);
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
        if (taskId != null && envFile == null) throw new Main.UserError("--task needs --env FILE (the environment file that holds the task)");
        Map<String, ToolFacts> facts = Map.of();
        FileEnvironment.ScoredTask scored = null;
        if (envFile != null) {
            try (FileEnvironment env = FileEnvironment.load(envFile)) {
                facts = env.toolFacts();
                if (taskId != null) {
                    String dir = (workdir == null ? Path.of("") : workdir).toAbsolutePath().normalize().toString();
                    scored = env.scoredTask(taskId, dir, sessionSeed);
                    if (scored.reset() != null) checkRefillable(scored.reset(), envFile);
                }
            } catch (BadEnvironmentFile e) {
                throw new Main.UserError(e.getMessage());
            }
        }
        Upstream upstream;
        try {
            upstream = new Upstream(command.isEmpty() ? null : command, upstreamUrl, Duration.ofSeconds(timeoutSeconds), log);
        } catch (InfrastructureException e) {
            throw new Main.UserError("upstream: " + e.getMessage());
        }
        dev.openagent.watch.ProxyWatch watch = null;
        try {
            if (watchRecord != null) watch = dev.openagent.watch.ProxyWatch.recording(upstream, watchRecord, window, System.err);
            if (baseline != null) watch = dev.openagent.watch.ProxyWatch.watching(upstream, baseline, watchEvents, webhook, System.err);
        } catch (InfrastructureException e) {
            upstream.close();
            throw new Main.UserError("upstream: " + e.getMessage());
        }
        dev.openagent.watch.ProxyWatch watching = watch;
        SessionRecorder recorder = null;
        if (store != null) {
            try {
                recorder = SessionRecorder.toStore(ResultStore.open(storePassword.location(store)), upstream.describe(), spec, stacks.getFirst());
            } catch (RuntimeException e) {
                upstream.close();
                throw e;
            }
        }
        if (scored != null && scored.reset() != null && !transport.stdio && maxSessions > 1) {
            // Every scored session refills the one folder the upstream works in: two at once would undo each other's writes.
            maxSessions = 1;
            System.err.println("proxy mcp: scored sessions run one at a time: each starts from a fresh copy of the file's reset.copy in " + workdir);
        }
        SessionPool opened = null;
        ProxyServer server;
        int tools;
        try {
            Applicable serving = applicable(upstream, stacks, sessionSeed, facts, scored);
            opened = new SessionPool(upstream, serving.stacks(), facts, scored, sessionSeed, transport.stdio ? 1 : maxSessions, Duration.ofSeconds(idleSeconds), recorder);
            if (watching != null && recorder != null) noteWatchEvents(watching, opened);
            if (transport.stdio) {
                server = ProxyServer.stdio(opened, System.in, protocol);
                tools = server.session().tools().size();
            } else {
                tools = serving.tools();   // sessions open as clients come: the first one's tools, as the check built it
                try {
                    server = ProxyServer.http(opened, listen.host, transport.port, listen.auth(), listen.maxBody, watching == null ? null : watching::scrape);
                } catch (IOException e) {
                    throw listen.cannotListen(transport.port, e);
                }
                listen.warnIfExposed("proxy mcp");
                System.out.println("proxy mcp listening on " + server.url());
                System.out.flush();
            }
        } catch (InfrastructureException e) {
            closeAll(opened, recorder, upstream);
            if (watching != null) watching.close();
            throw new Main.UserError("upstream: " + e.getMessage());
        } catch (RuntimeException e) {
            closeAll(opened, recorder, upstream);
            if (watching != null) watching.close();
            throw e;
        }
        SessionPool pool = opened;
        System.err.println("proxy mcp: " + tools + " tools of " + upstream.describe() + " under " + (stacks.size() == 1 ? stacks.getFirst().label()
                        : "one of " + pool.stacks() + " conditions of " + spec + " per session, drawn by its seed")
                + " (seed " + sessionSeed + (transport.stdio ? "" : "; each further HTTP session derives its own") + "); upstream log " + log);
        if (recorder != null) System.err.println("proxy mcp: recording sessions in " + recorder.describe());
        SessionRecorder recording = recorder;
        // Stdin closed, or SIGTERM: every open session is ended and recorded before the upstream stops and the JVM exits.
        if (watching != null) System.err.println("proxy mcp: " + (watchRecord != null ? "learning a baseline for " + watchRecord
                + (window == null ? " until the proxy stops" : " from " + window + " calls") : "watching against " + watchBaseline
                + (transport.stdio ? "" : "; metrics at " + server.url().replaceFirst("/mcp$", "/metrics"))));
        ServeCommand.serveUntilInputClosed(server::awaitInputClosed, "proxy-mcp", () -> {
            server.close();
            closeAll(pool, recording, upstream);
            if (watching != null) watching.close();
            System.err.println("proxy mcp: stopped after " + pool.opened() + (pool.opened() == 1 ? " session" : " sessions"));
        });
    }

    /**
     * Watch events go into the recordings, so `report` shows them: each session starts with the events raised before
     * it opened, and gets each new one while it is open.
     */
    private static void noteWatchEvents(dev.openagent.watch.ProxyWatch watching, SessionPool pool) {
        java.util.function.Function<dev.openagent.watch.Watcher.Event, String> note = e -> dev.openagent.run.WatchNote.of(e.toJson());
        pool.onOpen(s -> watching.watcher().events().forEach(e -> s.note(note.apply(e))));
        watching.onEvent(e -> pool.sessions().forEach(s -> s.note(note.apply(e))));
    }

    /**
     * --workdir is emptied and refilled from the file's reset.copy before every scored session: it must be given (not
     * the current folder by default), and be neither the file's own folder nor one holding it (the fixtures would go).
     */
    private void checkRefillable(FileEnvironment.Reset reset, Path file) {
        if (workdir == null) {
            throw new Main.UserError("--task with a file that has reset.copy needs --workdir DIR: the folder the upstream works in, emptied and "
                    + "refilled from " + reset.fixtures() + " before every scored session");
        }
        Path dir = reset.workdir();
        Path home = Path.of(System.getProperty("user.home")).toAbsolutePath().normalize();
        Path fileDir = file.toAbsolutePath().normalize().getParent();
        if (dir.getParent() == null || dir.equals(home) || fileDir.startsWith(dir) || reset.fixtures().startsWith(dir)) {
            throw new Main.UserError("--workdir " + workdir + " is emptied before every scored session: give a folder of its own, not one that holds "
                    + "the environment file, its fixtures or your home folder");
        }
    }

    private static void closeAll(SessionPool pool, SessionRecorder recorder, Upstream upstream) {
        try {
            if (pool != null) pool.close();
            if (recorder != null) recorder.close();
        } finally {
            upstream.close();
        }
    }

    /** The stacks the sessions may draw, and how many tools the first one's session (on the proxy's seed) shows. */
    private record Applicable(List<ShiftStack> stacks, int tools) {}

    /**
     * The stacks the sessions may draw: one stack must apply (or the proxy says why not and stops); of several (a
     * tier, all, a;b) those that cannot apply to the upstream's tools are left out, and named on stderr.
     */
    private static Applicable applicable(Upstream upstream, List<ShiftStack> stacks, long seed, Map<String, ToolFacts> facts,
                                         FileEnvironment.ScoredTask scored) {
        if (stacks.size() == 1) {
            // throws, naming the shift and why
            return new Applicable(stacks, new ProxySession(upstream, stacks.getFirst(), seed, facts, scored).tools().size());
        }
        List<ShiftStack> out = new java.util.ArrayList<>();
        List<String> skipped = new java.util.ArrayList<>();
        int tools = -1;
        for (ShiftStack s : stacks) {
            try {
                ProxySession session = new ProxySession(upstream, s, seed, facts, scored);
                if (out.isEmpty()) tools = session.tools().size();
                out.add(s);
            } catch (IllegalArgumentException e) {
                skipped.add(s.label());
            }
        }
        if (out.isEmpty()) throw new Main.UserError("none of the " + stacks.size() + " conditions can apply in the proxy (tool.* and obs.* shifts apply)");
        if (!skipped.isEmpty()) System.err.println("proxy mcp: left out (cannot apply to the upstream's tools): " + String.join(", ", skipped));
        return new Applicable(out, tools);
    }
}
