package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "watch",
        description = "Watch a real MCP server for open-world shift: snapshot its surface, compare snapshots, name each change in the catalog's terms (see docs/watch.md).",
        subcommands = {WatchRecordCommand.class, WatchDiffCommand.class, WatchMatrixCommand.class, CommandLine.HelpCommand.class})
final class WatchCommand extends GroupCommand {
}
