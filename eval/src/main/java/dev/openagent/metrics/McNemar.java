package dev.openagent.metrics;

/**
 * The exact McNemar test for paired binary outcomes (the same task with and without a shift).
 * Only discordant pairs carry information: {@code b} pairs succeeded only without the shift,
 * {@code c} only with it. Under the null hypothesis each discordant pair goes either way with
 * probability 1/2, so the two-sided p-value is {@code min(1, 2 * P[X <= min(b, c)])} for
 * X ~ Binomial(b + c, 1/2).
 */
public final class McNemar {
    private McNemar() {}

    public static double exactP(int b, int c) {
        if (b < 0 || c < 0) throw new IllegalArgumentException("counts must be >= 0");
        int n = b + c;
        if (n == 0) return 1.0;
        int m = Math.min(b, c);
        // Binomial(n, 1/2) probabilities in log space, so large n does not underflow.
        double logP = n * Math.log(0.5);
        double tail = 0;
        for (int i = 0; i <= m; i++) {
            tail += Math.exp(logP);
            logP += Math.log(n - i) - Math.log(i + 1);
        }
        return Math.min(1.0, 2 * tail);
    }
}
