package dev.openagent.server.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * What the servers write to stderr (their own lines, the MCP SDK's and Jetty's through SLF4J) while they are fuzzed:
 * still printed, and kept, so that a stack trace, an exception's text or an internal error logged for an input is a
 * finding. Jazzer's own lines (which name the classes it instruments: {@code INFO: Instrumented ...}) do not count.
 */
final class ServerLog implements AutoCloseable {
    private final PrintStream original = System.err;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();

    private ServerLog() {
        PrintStream original = this.original;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (kept) {
                    kept.write(b);
                }
                original.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (kept) {
                    kept.write(b, off, len);
                }
                original.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
    }

    /** Keeps stderr from now until {@link #close()}. */
    static ServerLog capture() {
        return new ServerLog();
    }

    /** Fails when what was logged since the last check holds a stack frame, an exception or an internal error. */
    void check(String after) {
        String fresh;
        synchronized (kept) {
            fresh = kept.toString(StandardCharsets.UTF_8);
            kept.reset();
        }
        for (String line : fresh.split("\n")) {
            if (line.startsWith("INFO: ") || line.startsWith("WARN: ") || line.startsWith("DEBUG: ")) continue;   // Jazzer's
            if (line.contains("\tat ") || line.contains("Exception") || line.contains("internal error") || line.contains("Caused by")) {
                throw new AssertionError("the server logged, after " + after + ":\n" + fresh);
            }
        }
    }

    /** Closes what the pass used (its client, the server), checks what was logged until then, and gives stderr back. */
    void closeAfter(AutoCloseable... used) throws Exception {
        try {
            for (AutoCloseable c : used) c.close();
            check("the server stopped");
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        System.setErr(original);
    }
}
