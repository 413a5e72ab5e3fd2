package dev.openagent.store;

/**
 * One point of a run's learning curve (table {@code curve_points}): a metric of one series after {@code x} steps or
 * episodes, with an optional interval.
 *
 * @param series the line it belongs to: {@code train} (the training loss), {@code static} (success on the static test
 *               tasks), a target shift, a group of episodes...; a producer names its own
 * @param x      how far the run had got: optimiser steps (RL: iterations) for {@code train} and {@code adapt}, episodes
 *               for a producer that learns from episodes; one series counts one thing
 * @param metric what was measured: {@code loss}, {@code reward}, {@code success}...
 * @param lo     the interval's lower end (success: its 95% Wilson interval), or null
 * @param hi     its upper end, or null
 */
public record CurvePoint(String series, long x, String metric, double value, Double lo, Double hi) {
    public CurvePoint {
        java.util.Objects.requireNonNull(series, "series");
        java.util.Objects.requireNonNull(metric, "metric");
        if (!Double.isFinite(value)) throw new IllegalArgumentException("a curve point's value must be finite, not " + value);
        if ((lo == null) != (hi == null)) throw new IllegalArgumentException("a curve point's interval needs both ends or neither");
    }
}
