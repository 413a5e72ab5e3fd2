package dev.openagent.cli;

import picocli.CommandLine;

/** A command that only groups subcommands: run alone, it prints its usage (the subcommands it offers). */
abstract class GroupCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
