package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.CountDownLatch;

@Command(mixinStandardHelpOptions = true, name = "serve", description = "Serve environments, an MCP server or a built-in policy over the network (127.0.0.1 by default).",
        subcommands = {ServeEnvCommand.class, ServeMcpCommand.class, ServeModelCommand.class, ServeBenchCommand.class,
                CommandLine.HelpCommand.class})
final class ServeCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Blocks until SIGTERM or Ctrl-C, then closes the server (in the shutdown hook, before the JVM exits). */
    static void serveUntilShutdown(AutoCloseable server, String name) {
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println(name + ": error while stopping: " + e);
            }
            System.err.println(name + ": stopped");
            stopped.countDown();
        }, name + "-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
