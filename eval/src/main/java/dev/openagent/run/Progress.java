package dev.openagent.run;

import dev.openagent.results.EpisodeResult;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Tells the user how a run is going: a progress bar with ETA on a terminal, plain periodic lines
 * otherwise (CI, pipes, {@code --no-progress}). Called from many episode threads at once.
 */
public interface Progress extends AutoCloseable {
    /** @param total episodes the run plans; @param done how many of them were already finished */
    void start(long total, long done);

    void finished(EpisodeResult r);

    @Override
    void close();

    Progress NONE = new Progress() {
        @Override
        public void start(long total, long done) {}

        @Override
        public void finished(EpisodeResult r) {}

        @Override
        public void close() {}
    };

    /** The progress display for this process: a bar when stderr is a terminal and CI is unset. */
    static Progress forConsole(boolean allowBar, PrintStream err) {
        return allowBar && isTerminal() ? new Bar(err) : new Lines(err, Duration.ofSeconds(10));
    }

    /** Whether stderr is an interactive terminal (and not a CI job). */
    static boolean isTerminal() {
        if ("true".equalsIgnoreCase(System.getenv("CI")) || System.console() == null) return false;
        try {
            // System.console() is non-null on newer JDKs even when redirected; look at what fd 2 is.
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (Exception e) {
            return true; // no /proc (not Linux): trust System.console()
        }
    }

    /** A progress bar with rate and ETA. */
    final class Bar implements Progress {
        private final PrintStream err;
        private ProgressBar bar;
        private long errors;

        Bar(PrintStream err) { this.err = err; }

        @Override
        public synchronized void start(long total, long done) {
            bar = new ProgressBarBuilder().setTaskName("eval").setInitialMax(total).startsFrom(done, Duration.ZERO)
                    .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(err))
                    .setUpdateIntervalMillis(250).setUnit(" ep", 1).showSpeed().build();
        }

        @Override
        public synchronized void finished(EpisodeResult r) {
            if (bar == null) return;
            if (r.infraError()) {
                errors++;
                bar.setExtraMessage(errors + " infra error" + (errors == 1 ? "" : "s"));
            }
            bar.step();
        }

        @Override
        public synchronized void close() {
            if (bar != null) bar.close();
            bar = null;
        }
    }

    /** One line every interval (and at the end): done/total, errors, rate, ETA. */
    final class Lines implements Progress {
        private final PrintStream err;
        private final long intervalNanos;
        private long total;
        private long done;
        private long startDone;
        private long errors;
        private long startNanos;
        private long lastPrint;

        public Lines(PrintStream err, Duration interval) {
            this.err = err;
            this.intervalNanos = interval.toNanos();
        }

        @Override
        public synchronized void start(long total, long done) {
            this.total = total;
            this.done = done;
            this.startDone = done;
            this.startNanos = System.nanoTime();
            this.lastPrint = startNanos;
            err.printf(Locale.ROOT, "eval: %d episodes planned, %d already done, %d to run%n", total, done, total - done);
        }

        @Override
        public synchronized void finished(EpisodeResult r) {
            done++;
            if (r.infraError()) errors++;
            long now = System.nanoTime();
            if (now - lastPrint >= intervalNanos) {
                lastPrint = now;
                print(now);
            }
        }

        private void print(long now) {
            double secs = (now - startNanos) / 1e9;
            double rate = secs > 0 ? (done - startDone) / secs : 0;
            String eta = done >= total ? "0s" : rate > 0 ? formatDuration((long) ((total - done) / rate)) : "?";
            err.printf(Locale.ROOT, "eval: %d/%d (%.1f%%), %d infra errors, %.1f episodes/s, ETA %s%n",
                    done, total, total == 0 ? 100.0 : 100.0 * done / total, errors, rate, eta);
        }

        @Override
        public synchronized void close() {
            if (total > 0 && done > startDone) print(System.nanoTime());
            total = 0;
        }

        /** {@code 42s}, {@code 3m05s}, {@code 1h07m}. */
        public static String formatDuration(long seconds) {
            if (seconds < 60) return seconds + "s";
            if (seconds < 3600) return (seconds / 60) + "m" + String.format(Locale.ROOT, "%02d", seconds % 60) + "s";
            return (seconds / 3600) + "h" + String.format(Locale.ROOT, "%02d", (seconds % 3600) / 60) + "m";
        }
    }
}
