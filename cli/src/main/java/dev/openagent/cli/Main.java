package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code openagent} command. Each subcommand is one class in this package. */
@Command(name = "openagent", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, version = "openagent 0.1.0",
        description = "Test and train tool-use agents under open-world shift.",
        subcommands = {EnvsCommand.class, ShiftsCommand.class, RunCommand.class, ValidateCommand.class, ShowCommand.class,
                BenchCommand.class, EvalCommand.class, FrontierCommand.class, ReportCommand.class, HarnessBenchCommand.class,
                TrainCommand.class, AdaptCommand.class, ExportCommand.class, StudyCommand.class, PolicyBenchCommand.class, ServeCommand.class, ProxyCommand.class, WatchCommand.class, StoreCommand.class, ViewCommand.class,
                CommandLine.HelpCommand.class})
public final class Main extends GroupCommand {
    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line; bad input gives a one-line error and exit code 2, never a stack trace. */
    public static int execute(String... args) {
        // A write to an MCP server (proxy upstream, environment file's server) that already died fails after its
        // request has failed and been answered with a one-line error; Reactor would print that dropped error's
        // stack trace on stderr.
        reactor.core.publisher.Hooks.onErrorDropped(dropped -> {});
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof java.io.UncheckedIOException
                    || e instanceof java.nio.file.NoSuchFileException || e instanceof UserError
                    || e instanceof dev.openagent.episode.InfrastructureException) {   // an environment that kept failing, after its retries
                cmd.getErr().println("openagent: " + message(e));
                return 2;
            }
            throw e;
        });
        return cli.execute(args);
    }

    private static String message(Throwable e) {
        if (e instanceof java.nio.file.NoSuchFileException n) return "no such file: " + n.getFile();
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** An error in what the user asked for: printed as one line, exit code 2. */
    public static final class UserError extends RuntimeException {
        public UserError(String message) { super(message); }
    }
}
