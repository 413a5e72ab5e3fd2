package dev.openagent.curve;

/**
 * Where a learning curve goes, one point at a time: the one seam between what produces a curve (online adaptation,
 * {@code eval --adapt online}) and what keeps it ({@link CurveFiles} in a run's directory today; a results-store table
 * can implement this later without touching the producer). Points are idempotent by (series, x, metric): a resumed run
 * sends the points of its completed groups again, and a sink keeps the last value given for a key.
 */
public interface CurveSink {
    /** Keeps nothing. */
    CurveSink NONE = (series, x, metric, value, lo, hi) -> {};

    /**
     * @param series which curve (a run's agent and condition)
     * @param x      the position on the curve (online adaptation: the group's number, from 1)
     * @param metric what is measured ({@code success}, {@code episodes}, ...)
     * @param value  its value
     * @param lo     the lower end of its 95% interval, or NaN when it has none
     * @param hi     the upper end, or NaN
     */
    void point(String series, long x, String metric, double value, double lo, double hi);

    /** A point without an interval. */
    default void point(String series, long x, String metric, double value) {
        point(series, x, metric, value, Double.NaN, Double.NaN);
    }

    /** Makes the points given so far durable (a file sink rewrites its files); called after each group. */
    default void flush() {}

    /** Sends each point, and each flush, to this sink and then to {@code other} (a run's files and its results store). */
    default CurveSink and(CurveSink other) {
        CurveSink first = this;
        return new CurveSink() {
            @Override
            public void point(String series, long x, String metric, double value, double lo, double hi) {
                first.point(series, x, metric, value, lo, hi);
                other.point(series, x, metric, value, lo, hi);
            }

            @Override
            public void flush() {
                first.flush();
                other.flush();
            }
        };
    }
}
