package dev.openagent.frontier;

import dev.openagent.results.EpisodeResult;
import dev.openagent.run.Progress;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * How a frontier search is going: episodes used of the budget, ladders settled, the rate of episodes run now, and
 * an ETA from the search's estimate of what is left (with the most it may still run). A bar on a terminal, a plain
 * line every interval otherwise (CI, pipes, {@code --no-progress}). It hears of every episode ({@link Progress},
 * from the episode threads) and of every round ({@link FrontierSearch.Listener}).
 */
public final class FrontierProgress implements Progress, FrontierSearch.Listener {
    private final PrintStream err;
    private final boolean bar;
    private final long intervalNanos;
    private final int budget;
    private final long startNanos = System.nanoTime();
    private ProgressBar progressBar;
    private long ran;
    private long errors;
    private long lastPrint = startNanos;
    /** What the search said after its last round, and how many episodes had run by then. */
    private int spent, settled, ladders, remaining, most;
    private long ranAtRound;
    private boolean heard;

    private FrontierProgress(PrintStream err, boolean bar, Duration interval, int budget) {
        this.err = err;
        this.bar = bar;
        this.intervalNanos = interval.toNanos();
        this.budget = budget;
    }

    /** A bar when {@code allowBar} and stderr is a terminal outside CI, else a line every ten seconds. */
    public static FrontierProgress forConsole(boolean allowBar, PrintStream err, int budget) {
        return new FrontierProgress(err, allowBar && Progress.isTerminal(), Duration.ofSeconds(10), budget);
    }

    /** Plain lines at this interval (tests). */
    static FrontierProgress lines(PrintStream err, Duration interval, int budget) {
        return new FrontierProgress(err, false, interval, budget);
    }

    @Override
    public void start(long total, long done) {
        // Each round is a batch of its own; the search's own counts are what this display shows.
    }

    @Override
    public synchronized void finished(EpisodeResult r) {
        ran++;
        if (r.infraError()) errors++;
        show(false);
    }

    @Override
    public synchronized void round(int spent, int settled, int ladders, int remaining, int most) {
        this.spent = spent;
        this.settled = settled;
        this.ladders = ladders;
        this.remaining = remaining;
        this.most = most;
        this.ranAtRound = ran;
        this.heard = true;
        show(false);
    }

    /** Updates the bar, or prints a line when the interval has passed ({@code force}: now). */
    private void show(boolean force) {
        long inRound = ran - ranAtRound;
        long used = spent + inRound;
        double secs = (System.nanoTime() - startNanos) / 1e9;
        double rate = secs > 0 ? ran / secs : 0;
        long left = Math.max(0, remaining - inRound), mostLeft = Math.max(0, most - inRound);
        String eta = !heard ? "?" : left == 0 ? "0s" : rate > 0 ? "~" + Progress.Lines.formatDuration((long) (left / rate))
                + " (at most " + Progress.Lines.formatDuration((long) (mostLeft / rate)) + ")" : "?";
        String text = String.format(Locale.ROOT, "%d of %d shifts settled, %d infra errors, ETA %s", settled, ladders, errors, eta);
        if (bar) {
            if (progressBar == null) {
                progressBar = new ProgressBarBuilder().setTaskName("frontier").setInitialMax(Math.max(1, used + left)).startsFrom(used, Duration.ZERO)
                        .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(err))
                        .setUpdateIntervalMillis(250).setUnit(" ep", 1).showSpeed().hideEta().build();
            }
            progressBar.maxHint(Math.max(used + left, used));
            progressBar.stepTo(used);
            progressBar.setExtraMessage(text);
            return;
        }
        long now = System.nanoTime();
        if (!force && now - lastPrint < intervalNanos) return;
        lastPrint = now;
        err.printf(Locale.ROOT, "frontier: %d episodes used (budget %d), %d run now, %.1f episodes/s; %s%n", used, budget, ran, rate, text);
    }

    @Override
    public synchronized void close() {
        // Called after every round by the runner; the display ends with done().
    }

    /** Ends the display: the bar closes, the last line is printed. */
    public synchronized void done() {
        if (progressBar != null) progressBar.close();
        progressBar = null;
        if (!bar && (ran > 0 || heard)) show(true);
    }
}
