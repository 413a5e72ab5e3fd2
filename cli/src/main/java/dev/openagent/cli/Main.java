package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import dev.openagent.UserInputException;
import dev.openagent.episode.InfrastructureException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code openagent} command. Each subcommand is one class in this package. */
@Command(name = "openagent", mixinStandardHelpOptions = true, scope = CommandLine.ScopeType.INHERIT, version = "openagent 0.1.0",
        description = "Test and train tool-use agents under open-world shift.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:internal error: a bug, printed with its stack trace on stderr",
                "2:bad input (a flag, a file, a shift spec, a store): one line on stderr",
                "3:eval, frontier: episodes left unscored (see the command's docs)"},
        subcommands = {EnvsCommand.class, ShiftsCommand.class, RunCommand.class, ValidateCommand.class, ShowCommand.class,
                BenchCommand.class, EvalCommand.class, FrontierCommand.class, ReportCommand.class, HarnessBenchCommand.class,
                TrainCommand.class, AdaptCommand.class, ExportCommand.class, StudyCommand.class, PolicyBenchCommand.class, ServeCommand.class, ProxyCommand.class, WatchCommand.class, StoreCommand.class, ViewCommand.class,
                CommandLine.HelpCommand.class})
public final class Main extends GroupCommand {
    /** The environments of this command line: built at {@link #execute(String...)}, closed when the command returns. */
    private final Catalog catalog;

    Main(Catalog catalog) { this.catalog = catalog; }

    /**
     * The catalog of the command line {@code spec} belongs to (a command's, a subcommand's or a mixin's spec): what
     * {@code --env} files and tau2-bench load into, and where commands look environments up by id.
     */
    static Catalog catalog(CommandLine.Model.CommandSpec spec) {
        return ((Main) spec.root().userObject()).catalog;
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /**
     * Runs the command line. Input the user got wrong ({@link UserInputException}, which {@link UserError} is) and an
     * environment that kept failing after its retries ({@link InfrastructureException}) give a one-line error and
     * exit code 2; any other exception is a bug and gives a one-line summary, its stack trace and exit code 1.
     */
    public static int execute(String... args) {
        // A write to an MCP server (proxy upstream, environment file's server) that already died fails after its
        // request has failed and been answered with a one-line error; Reactor would print that dropped error's
        // stack trace on stderr.
        reactor.core.publisher.Hooks.onErrorDropped(dropped -> {});
        try (Catalog catalog = new Catalog()) {
            return execute(new CommandLine(new Main(catalog)), args);
        }
    }

    /** Runs {@code cli} with openagent's handling of errors (see {@link #execute(String...)}). */
    static int execute(CommandLine cli, String... args) {
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof UserInputException || e instanceof InfrastructureException) {
                cmd.getErr().println("openagent: " + message(e));
                return USER_ERROR;
            }
            cmd.getErr().println("openagent: internal error: " + e + " (a bug: please report it with the trace below)");
            e.printStackTrace(cmd.getErr());
            cmd.getErr().flush();
            return cmd.getCommandSpec().exitCodeOnExecutionException();
        });
        return cli.execute(args);
    }

    /** The exit code of a one-line error: what the user asked for cannot be done as asked. */
    static final int USER_ERROR = 2;

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }

    /** An error in what the user asked for, found by a command: printed as one line, exit code 2. */
    public static final class UserError extends UserInputException {
        public UserError(String message) { super(message); }
    }
}
