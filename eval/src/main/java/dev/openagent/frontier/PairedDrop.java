package dev.openagent.frontier;

import dev.openagent.UserInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * A sequential test of whether a shift costs an agent at least {@code d} points of success, paired task by task:
 * each pair is one task run static and shifted, and its difference {@code static - shifted} is -1, 0 or 1. The
 * mean difference over the task population is the drop.
 * <p>
 * The test is an anytime-valid confidence sequence for the drop, built by betting (Waudby-Smith and Ramdas,
 * "Estimating means of bounded random variables by betting", JRSS-B 2024): for a candidate mean {@code m} of the
 * differences mapped to [0, 1], a gambler who bets that the mean is above {@code m} multiplies its capital by
 * {@code 1 + lambda (y - m)} at each pair, and one who bets below by {@code 1 - lambda (y - m)}, with stakes
 * chosen from the pairs before (predictable). Under the candidate, each capital is a non-negative supermartingale,
 * so by Ville's inequality it ever reaches {@code 2 / alpha} with probability at most {@code alpha / 2}. The
 * candidates neither capital has ever reached that level form the interval, which therefore covers the true drop
 * at every number of pairs at once with probability at least {@code 1 - alpha} (the confidence): pairs may be
 * added until the verdict is clear, and the test looked at after every one, without inflating the error.
 * <p>
 * The verdict follows from the interval: the shift <em>breaks</em> the agent once the whole interval lies at or
 * above {@code d}, it <em>holds</em> once the whole interval lies below {@code d}, and it is <em>open</em> until
 * then. A verdict is wrong only if the interval missed the true drop, so each is wrong with probability at most
 * {@code alpha / 2} (the direction it errs in is one side of the interval).
 * <p>
 * Stakes follow the approximate growth-rate-optimal rule (aGRAPA in the paper) aimed at the boundary {@code d}:
 * {@code lambda = (mu - m_d) / (sigma^2 + (mu - m_d)^2)} from the running mean and variance (with a prior of one
 * pair of mean 1/2 and variance 1/4), on the side the data point to, capped at {@code c / m} (above) or
 * {@code c / (1 - m)} (below) so a capital never reaches 0. The stakes depend on {@code d}, not on the candidate,
 * so each capital is monotone in the candidate: the interval is an interval, and the verdict read at {@code d}
 * agrees with it exactly.
 */
public final class PairedDrop {
    /** The verdict so far. */
    public enum Verdict {
        BREAKS, HOLDS, OPEN;

        public String id() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** The cap on a stake, as a share of what a capital could lose at once (WSR's c). */
    static final double STAKE_CAP = 0.75;
    private static final int BISECTIONS = 40;

    private final double drop;
    private final double alpha;
    private final List<Integer> differences = new ArrayList<>();
    /** The stakes on "above" and "below" made before each pair (predictable), as the rule gives them before capping. */
    private final List<Double> above = new ArrayList<>();
    private final List<Double> below = new ArrayList<>();
    private double sum;
    private double squares = 0.25;
    private Verdict verdict = Verdict.OPEN;
    /** The number of pairs at which the verdict was reached (0 while open). */
    private int decidedAt;

    /**
     * @param drop       the drop that counts as breaking, in (0, 1]
     * @param confidence the confidence of the interval, in (0, 1)
     */
    public PairedDrop(double drop, double confidence) {
        if (!(drop > 0 && drop <= 1)) throw new UserInputException("the drop must be in (0, 1], got " + drop);
        if (!(confidence > 0 && confidence < 1)) throw new UserInputException("the confidence must be in (0, 1), got " + confidence);
        this.drop = drop;
        this.alpha = 1 - confidence;
    }

    /** Adds one pair: whether the task succeeded static and shifted. */
    public void add(boolean staticSuccess, boolean shiftedSuccess) {
        add((staticSuccess ? 1 : 0) - (shiftedSuccess ? 1 : 0));
    }

    /** Adds one pair's difference, static minus shifted: -1, 0 or 1. */
    public void add(int difference) {
        if (difference < -1 || difference > 1) throw new IllegalArgumentException("a paired difference is -1, 0 or 1");
        int t = differences.size();
        double mean = (0.5 + sum) / (t + 1);
        double variance = squares / (t + 1);
        double gap = mean - boundary();
        double kelly = gap / (variance + gap * gap);
        above.add(Math.max(0, kelly));
        below.add(Math.max(0, -kelly));
        differences.add(difference);
        double y = (difference + 1) / 2.0;
        sum += y;
        double after = (0.5 + sum) / (t + 2);
        squares += (y - after) * (y - after);
        if (verdict == Verdict.OPEN) {
            if (excluded(boundary(), true)) verdict = Verdict.BREAKS;
            else if (excluded(boundary(), false)) verdict = Verdict.HOLDS;
            if (verdict != Verdict.OPEN) decidedAt = differences.size();
        }
    }

    /** The boundary {@code d} on the [0, 1] scale of the differences. */
    private double boundary() { return (drop + 1) / 2; }

    /**
     * Whether a gambler against candidate {@code m} has ever reached {@code 2 / alpha}: the one betting above (the drop
     * is above m's with the confidence: m and everything below it are out of the interval), or the one betting below.
     */
    private boolean excluded(double m, boolean betAbove) {
        double capital = 1, threshold = 2 / alpha;
        for (int i = 0; i < differences.size(); i++) {
            double gain = (differences.get(i) + 1) / 2.0 - m;
            capital *= betAbove ? 1 + Math.min(above.get(i), STAKE_CAP / m) * gain : 1 - Math.min(below.get(i), STAKE_CAP / (1 - m)) * gain;
            if (capital >= threshold) return true;
        }
        return false;
    }

    public int pairs() { return differences.size(); }

    public Verdict verdict() { return verdict; }

    /** The number of pairs at which the verdict was reached, 0 while it is open. */
    public int decidedAt() { return decidedAt; }

    /** The drop observed: the mean paired difference (0 before any pair). */
    public double estimate() {
        if (differences.isEmpty()) return 0;
        double s = 0;
        for (int d : differences) s += d;
        return s / differences.size();
    }

    /** The interval's lower end on the drop scale (-1 before any pair excludes anything). */
    public double lower() { return 2 * edge(true) - 1; }

    /** The interval's upper end on the drop scale (1 before any pair excludes anything). */
    public double upper() { return 2 * edge(false) - 1; }

    /**
     * Where the candidates one gambler has excluded end, on the [0, 1] scale: those excluded by the gambler betting
     * above form [0, edge) (its capital falls as the candidate rises), those excluded by the one betting below (edge, 1].
     */
    private double edge(boolean betAbove) {
        double lo = 1e-12, hi = 1 - 1e-12;
        if (!excluded(betAbove ? lo : hi, betAbove)) return betAbove ? 0 : 1;
        if (excluded(betAbove ? hi : lo, betAbove)) return betAbove ? 1 : 0;
        for (int i = 0; i < BISECTIONS; i++) {
            double mid = (lo + hi) / 2;
            if (excluded(mid, betAbove) == betAbove) lo = mid;
            else hi = mid;
        }
        return betAbove ? lo : hi;
    }

    /** The verdict had the pairs stopped here: the decided one, else which side of {@code d} the estimate lies on. */
    public Verdict leaning() {
        if (verdict != Verdict.OPEN) return verdict;
        return estimate() >= drop ? Verdict.BREAKS : Verdict.HOLDS;
    }
}
