package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(mixinStandardHelpOptions = true, name = "proxy", description = "Sit between an agent and its real tools and shift them live (see docs/proxy.md).",
        subcommands = {ProxyMcpCommand.class, CommandLine.HelpCommand.class})
final class ProxyCommand extends GroupCommand {
}
