package dev.openagent.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM's compiler and garbage-collector threads, read from
 * {@code /proc/self/task/*}/stat (Linux; elsewhere both are -1). These threads are invisible to
 * {@code ThreadMXBean}, and on a short bench their work is mostly warm-up, so the bench reports
 * them apart from the server's own request handling.
 *
 * @param jitNanos CPU time of the C1/C2 compiler threads
 * @param gcNanos  CPU time of the collector's threads (G1 workers, marking, refinement)
 */
record JvmThreadsCpu(long jitNanos, long gcNanos) {
    /** Clock ticks per second of the stat fields: USER_HZ, 100 on every Linux the JDK supports. */
    private static final long TICK_NANOS = 10_000_000L;
    private static final JvmThreadsCpu UNKNOWN = new JvmThreadsCpu(-1, -1);

    static JvmThreadsCpu read() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) return UNKNOWN;
        long jit = 0, gc = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue;   // the thread ended meanwhile
                }
                int open = stat.indexOf('('), close = stat.lastIndexOf(')');
                if (open < 0 || close < open) continue;
                String name = stat.substring(open + 1, close);
                boolean isJit = name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler");
                boolean isGc = name.startsWith("GC Thread") || name.startsWith("G1 ");
                if (!isJit && !isGc) continue;
                // Fields after the name: state(3) ppid ... utime(14) stime(15), counted from 1 with the pid.
                String[] f = stat.substring(close + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                if (isJit) jit += ticks;
                else gc += ticks;
            }
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
        return new JvmThreadsCpu(jit * TICK_NANOS, gc * TICK_NANOS);
    }

    /** The time spent since {@code before} (unknown when either reading is). */
    JvmThreadsCpu minus(JvmThreadsCpu before) {
        if (jitNanos < 0 || before.jitNanos < 0) return UNKNOWN;
        return new JvmThreadsCpu(jitNanos - before.jitNanos, gcNanos - before.gcNanos);
    }
}
