package dev.openagent.policy;

/**
 * Where a training run's learning curve goes, point by point: {@code train --store} and {@code adapt --store} send it to
 * the results store ({@code ResultStore.curvePoint}, which takes the same arguments after the run id).
 */
@FunctionalInterface
public interface CurveSink {
    /** Keeps nothing. */
    CurveSink NONE = (series, x, metric, value, lo, hi) -> {};

    /**
     * @param series the line ({@code train} for the trainer's own)
     * @param x      optimiser steps (RL: iterations) done
     * @param lo     the interval's lower end, or null
     * @param hi     its upper end, or null
     */
    void point(String series, long x, String metric, double value, Double lo, Double hi);
}
