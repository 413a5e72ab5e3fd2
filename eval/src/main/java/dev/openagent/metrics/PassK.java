package dev.openagent.metrics;

import java.util.Collection;

/**
 * pass^k as tau-bench defines it: the chance that all of k independently drawn trials of a task
 * succeed, estimated without bias per task from its n trials with c successes as
 * {@code C(c, k) / C(n, k)}, then averaged over tasks. pass^1 is the success rate; pass^k falls
 * with k unless the agent is consistent.
 */
public final class PassK {
    private PassK() {}

    /** One task's trials. */
    public record Trials(int n, int successes) {
        public Trials {
            if (n < 0 || successes < 0 || successes > n) throw new IllegalArgumentException("need 0 <= successes <= n");
        }
    }

    /** Null when no task has k trials. */
    public static Double of(Collection<Trials> tasks, int k) {
        if (k < 1) throw new IllegalArgumentException("k must be at least 1");
        double sum = 0;
        int counted = 0;
        for (Trials t : tasks) {
            if (t.n() < k) continue;
            sum += choose(t.successes(), k) / choose(t.n(), k);
            counted++;
        }
        return counted == 0 ? null : sum / counted;
    }

    static double choose(int n, int k) {
        if (k < 0 || k > n) return 0;
        double r = 1;
        for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
        return r;
    }
}
