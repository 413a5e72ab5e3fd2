package dev.openagent.study;

import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.policy.Trainer;
import dev.openagent.run.Progress;
import dev.openagent.sandbox.Interface;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarConsumer;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * How far a study has got over all its phases (each training run, each evaluation) and when it
 * will end. A study plans every phase before it starts, with an estimate of its work, so the
 * overall fraction done and the ETA cover the whole study, not the current phase. On a terminal
 * this is one progress bar with the active phases beside it (log lines print above it); otherwise
 * (CI, pipes) the log lines as they come, plus a plain progress line when a phase ends and at
 * most every 15 seconds in between.
 * Phases report from the training thread and the evaluation thread at once.
 */
public abstract class StudyProgress implements AutoCloseable {
    private final List<Phase> phases = new ArrayList<>();
    private double totalWork;

    /** One planned phase: its share of the study's work and how many of its units (steps, episodes) are done. */
    public final class Phase {
        final String name;
        final double work;
        final long units;
        private long done;
        private boolean started;
        private boolean finished;

        private Phase(String name, double work, long units) {
            this.name = name;
            this.work = work;
            this.units = Math.max(1, units);
        }

        /** n more units done. */
        public void advance(long n) {
            synchronized (StudyProgress.this) {
                done = Math.min(units, done + n);
                started = true;
            }
            changed(null);
        }

        /** k units done in all (a training step count, as the trainer reports it). */
        public void advanceTo(long k) {
            synchronized (StudyProgress.this) {
                done = Math.min(units, Math.max(done, k));
                started = true;
            }
            changed(null);
        }

        public void done() {
            synchronized (StudyProgress.this) {
                if (finished) return;
                done = units;
                started = true;
                finished = true;
            }
            changed(this);
        }

        double workDone() { return work * done / units; }

        String status() { return name + " " + done + "/" + units; }
    }

    /**
     * Plans a phase.
     *
     * @param work  its estimated cost, in the units of {@link #trainingWork} and {@link #evaluationWork}
     * @param units how many steps, iterations or episodes it counts
     */
    public synchronized Phase phase(String name, double work, long units) {
        Phase p = new Phase(name, work, units);
        phases.add(p);
        totalWork += work;
        return p;
    }

    /** A line of the study's log. */
    public abstract void log(String line);

    /** Called after any phase moved on; {@code ended} is the phase that just finished, if one did. */
    protected abstract void changed(Phase ended);

    @Override
    public abstract void close();

    /** The fraction of the study's planned work done, 0 to 1. */
    public synchronized double fraction() {
        if (totalWork <= 0) return 0;
        double done = 0;
        for (Phase p : phases) done += p.workDone();
        return Math.min(1, done / totalWork);
    }

    /** The phases started and not finished, as {@code train rl 4/15 · evaluate sft 1200/2700}. */
    public synchronized String active() {
        return phases.stream().filter(p -> p.started && !p.finished).map(Phase::status).collect(Collectors.joining(" · "));
    }

    // ---------------------------------------------------------------- cost estimates

    /**
     * Estimated CPU seconds of a training run: an optimiser step costs about 2.5 ms per example on a
     * function-call environment (the prose contexts of a text-command one about 2.5 times that); an RL
     * iteration its rollouts plus one step over their decisions.
     */
    public static double trainingWork(Trainer.Options o) {
        double perExample = 0.0025 * contextFactor(o.environment(o.env()).info());
        return switch (o.method()) {
            case SFT, PAFT -> o.steps() * o.batch() * perExample;
            case RL -> o.steps() * o.groupTasks() * o.groupSize() * (0.01 + 4 * perExample);
        };
    }

    /** Estimated CPU seconds of evaluating episodes of an environment in lockstep. */
    public static double evaluationWork(EnvironmentInfo env, long episodes) {
        return episodes * 0.008 * contextFactor(env) * contextFactor(env);
    }

    private static double contextFactor(EnvironmentInfo env) {
        return env.iface() == Interface.TEXT_COMMAND ? 2.5 : 1;
    }

    // ---------------------------------------------------------------- displays

    /** Log lines to {@code log} and a plain progress line every 15 seconds (no terminal). */
    public static StudyProgress lines(Consumer<String> log) {
        return new Lines(log, Duration.ofSeconds(15), "the study");
    }

    /** For a command: a bar on a terminal (not under CI), else plain lines, on {@code err}. */
    public static StudyProgress console(String title, PrintStream err) {
        return console(title, err, "the study");
    }

    /** As {@link #console(String, PrintStream)}, the plain lines saying what the work is ({@code progress: 40% of the adaptation}). */
    public static StudyProgress console(String title, PrintStream err, String what) {
        return Progress.isTerminal() ? new Bar(title, err) : new Lines(err::println, Duration.ofSeconds(15), what);
    }

    /** Discards everything (tests). */
    public static StudyProgress none() {
        return new Lines(line -> {}, Duration.ofDays(1), "the study");
    }

    static String eta(double fraction, long elapsedNanos) {
        if (fraction <= 0.005) return "?";
        long seconds = Math.round(elapsedNanos / 1e9 * (1 - fraction) / fraction);
        return seconds < 60 ? seconds + "s" : seconds < 3600 ? seconds / 60 + "m" + String.format(Locale.ROOT, "%02ds", seconds % 60)
                : seconds / 3600 + "h" + String.format(Locale.ROOT, "%02dm", seconds % 3600 / 60);
    }

    /** Plain lines: the log as it comes, and at most every interval how far the study has got. */
    static final class Lines extends StudyProgress {
        private final Consumer<String> out;
        private final long interval;
        private final String what;
        private final long start = System.nanoTime();
        private long last = start;

        Lines(Consumer<String> out, Duration interval) {
            this(out, interval, "the study");
        }

        Lines(Consumer<String> out, Duration interval, String what) {
            this.out = out;
            this.interval = interval.toNanos();
            this.what = what;
        }

        @Override
        public synchronized void log(String line) {
            out.accept(line);
        }

        @Override
        protected void changed(Phase ended) {
            String line;
            synchronized (this) {
                long now = System.nanoTime();
                if (ended == null && now - last < interval) return;
                last = now;
                double f = fraction();
                String doing = active();
                line = String.format(Locale.ROOT, "progress: %.0f%% of %s, ETA %s%s%s", 100 * f, what, eta(f, now - start),
                        ended == null ? "" : "; done: " + ended.name, doing.isEmpty() ? "" : " (" + doing + ")");
            }
            log(line);
        }

        @Override
        public void close() {}
    }

    /** One progress bar over the whole study, its active phases beside it, log lines printed above it. */
    static final class Bar extends StudyProgress {
        private static final int SCALE = 1000;
        private final Screen screen;
        private final ProgressBar bar;

        Bar(String title, PrintStream err) {
            this.screen = new Screen(err);
            this.bar = new ProgressBarBuilder().setTaskName(title).setInitialMax(SCALE).setStyle(ProgressBarStyle.ASCII)
                    .setUnit("%", SCALE / 100).setConsumer(screen).setUpdateIntervalMillis(500).build();
        }

        @Override
        public void log(String line) {
            screen.line(line);
        }

        @Override
        protected void changed(Phase ended) {
            bar.stepTo(Math.round(fraction() * SCALE));
            bar.setExtraMessage(active());
        }

        @Override
        public void close() {
            bar.close();
        }
    }

    /** The bar's line on stderr; a log line clears it, prints, and the bar is redrawn below. */
    private static final class Screen implements ProgressBarConsumer {
        private final PrintStream err;
        private final ConsoleProgressBarConsumer console;
        private String last = "";

        Screen(PrintStream err) {
            this.err = err;
            this.console = new ConsoleProgressBarConsumer(err);
        }

        @Override
        public int getMaxRenderedLength() { return console.getMaxRenderedLength(); }

        @Override
        public synchronized void accept(String rendered) {
            last = rendered;
            err.print('\r' + rendered);
            err.flush();
        }

        synchronized void line(String text) {
            err.print("\r\033[K" + text + "\n" + last);
            err.flush();
        }

        @Override
        public synchronized void close() {
            err.println();
            err.flush();
        }
    }
}
