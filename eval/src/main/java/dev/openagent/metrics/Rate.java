package dev.openagent.metrics;

/**
 * A proportion k/n with its 95% Wilson score interval, which (unlike the normal approximation)
 * stays inside [0, 1] and behaves at 0 and n successes and for small n.
 */
public record Rate(int k, int n, double value, double lo, double hi) {
    static final double Z95 = 1.959963984540054;

    /** Null when n is 0 (a rate of nothing is not zero). */
    public static Rate of(long k, long n) {
        if (n <= 0) return null;
        if (k < 0 || k > n) throw new IllegalArgumentException("need 0 <= k <= n, got " + k + "/" + n);
        double p = (double) k / n;
        double z2 = Z95 * Z95;
        double denom = 1 + z2 / n;
        double center = (p + z2 / (2.0 * n)) / denom;
        double half = Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denom;
        // At 0 and n the bound is exactly 0 or 1; rounding must not push the estimate outside the interval.
        double lo = k == 0 ? 0 : Math.max(0, Math.min(p, center - half));
        double hi = k == n ? 1 : Math.min(1, Math.max(p, center + half));
        return new Rate((int) k, (int) n, p, lo, hi);
    }
}
