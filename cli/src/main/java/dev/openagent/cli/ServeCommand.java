package dev.openagent.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.CountDownLatch;

@Command(mixinStandardHelpOptions = true, name = "serve", description = "Serve environments, an MCP server or a built-in policy over the network (127.0.0.1 by default).",
        subcommands = {ServeEnvCommand.class, ServeMcpCommand.class, ServeModelCommand.class, ServeBenchCommand.class,
                CommandLine.HelpCommand.class})
final class ServeCommand extends GroupCommand {
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

    /** What an MCP server over stdio waits for: the client closing standard input. */
    interface InputClosed {
        void await() throws InterruptedException;
    }

    /**
     * Serves until the client closes standard input or until SIGTERM or Ctrl-C (then in the shutdown hook,
     * before the JVM exits), and runs {@code stop} once, whichever comes first.
     */
    static void serveUntilInputClosed(InputClosed input, String name, Runnable stop) {
        java.util.concurrent.atomic.AtomicBoolean stopped = new java.util.concurrent.atomic.AtomicBoolean();
        Runnable once = () -> {
            if (stopped.compareAndSet(false, true)) stop.run();
        };
        Runtime.getRuntime().addShutdownHook(new Thread(once, name + "-shutdown"));
        try {
            input.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        once.run();   // stdin closed: stop now (the hook then finds nothing to do)
    }
}
