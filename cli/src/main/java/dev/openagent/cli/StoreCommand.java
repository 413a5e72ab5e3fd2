package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "store", description = "Work with results stores (SQLite files and PostgreSQL databases).",
        subcommands = {StoreMergeCommand.class, CommandLine.HelpCommand.class})
final class StoreCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
