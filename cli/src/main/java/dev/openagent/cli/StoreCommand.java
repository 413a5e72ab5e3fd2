package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "store", description = "Work with results stores (SQLite files and PostgreSQL databases).",
        subcommands = {StoreMergeCommand.class, CommandLine.HelpCommand.class})
final class StoreCommand extends GroupCommand {
}
