package dev.openagent.policy;

import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Draws the shift of a perturbed training episode (PAFT, shifted RL rollouts): a shift chosen
 * among those that apply to the environment with a weight each, its enumerated parameters
 * (severity, format, ...) drawn uniformly from their values, the others at their defaults.
 * How the weights are spread is the PAFT mix ({@link Mix}): uniformly over shifts, uniformly over
 * tiers, and an optional fixed share for one shift (the refusal demonstrations of
 * {@code task.unsolvable}).
 */
public final class ShiftSampler {
    /** Shifts PAFT does not draw: they replace the environment rather than perturb it. */
    public static final Set<String> NOT_FOR_TRAINING = Set.of("domain.transfer");
    /**
     * A tier PAFT does not draw either: the security tier (beyond the paper's four) stays a held-out
     * test of what training on the paper's tiers gives, never a training signal of its own.
     */
    public static final Tier NOT_FOR_TRAINING_TIER = Tier.SECURITY;
    public static final String UNSOLVABLE = "task.unsolvable";

    /**
     * How perturbed episodes are spread over the catalog.
     *
     * @param byTier          each tier gets the same share, split evenly among its shifts (else each shift the same share)
     * @param unsolvableShare the share of perturbed episodes drawn as {@code task.unsolvable} (refusal
     *                        demonstrations); negative leaves it to the spread above
     * @param tiers           the tiers drawn from (empty: every tier given); {@code task.unsolvable} is drawn
     *                        at its share whether or not its tier is listed
     */
    public record Mix(boolean byTier, double unsolvableShare, Set<Tier> tiers) {
        public Mix {
            if (unsolvableShare >= 1) throw new IllegalArgumentException("the unsolvable share must be below 1");
            tiers = Set.copyOf(tiers);
        }

        /** Every tier. */
        public Mix(boolean byTier, double unsolvableShare) {
            this(byTier, unsolvableShare, Set.of());
        }

        /** Every shift equally likely (the first PAFT recipe). */
        public static final Mix UNIFORM = new Mix(false, -1);

        /** The same spread over these tiers only (and {@code task.unsolvable} at its share). */
        public Mix only(Tier... ts) {
            return new Mix(byTier, unsolvableShare, Set.of(ts));
        }

        /** Whether a shift of this tier is drawn (apart from {@code task.unsolvable}'s own share). */
        boolean draws(Tier t) {
            return tiers.isEmpty() || tiers.contains(t);
        }

        /** For logs and {@code training.json}: {@code by-shift}, {@code by-tier, unsolvable 0.25}, {@code by-shift over perception+interaction}. */
        public String label() {
            String over = tiers.isEmpty() ? "" : " over " + String.join("+", java.util.Arrays.stream(Tier.values()).filter(tiers::contains).map(Tier::id).toList());
            return (byTier ? "by-tier" : "by-shift") + over
                    + (unsolvableShare >= 0 ? String.format(java.util.Locale.ROOT, ", unsolvable %.2f", unsolvableShare) : "");
        }
    }

    private final List<Shift> shifts;
    /** Cumulative weights, one per shift, the last 1. */
    private final double[] cumulative;
    /** Every shift equally likely: drawn as before weights existed, so uniform draws (and exports) stay the same. */
    private final boolean uniform;

    private ShiftSampler(List<Shift> shifts, double[] weights, boolean uniform) {
        this.shifts = List.copyOf(shifts);
        this.uniform = uniform;
        this.cumulative = new double[shifts.size()];
        double total = 0;
        for (double w : weights) total += w;
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i] / total;
            cumulative[i] = sum;
        }
        if (cumulative.length > 0) cumulative[cumulative.length - 1] = 1;
    }

    /** The catalog's shifts that apply to the environment, each equally likely. */
    public static ShiftSampler catalog(EnvironmentInfo env) {
        return catalog(env, Mix.UNIFORM);
    }

    /** The catalog's shifts that apply to the environment, weighted by the mix. */
    public static ShiftSampler catalog(EnvironmentInfo env, Mix mix) {
        return of(ShiftCatalog.all().stream()
                .filter(s -> !NOT_FOR_TRAINING.contains(s.id()) && s.tier() != NOT_FOR_TRAINING_TIER && s.notApplicable(env).isEmpty()).toList(), mix);
    }

    /** These shifts, each equally likely. */
    public static ShiftSampler of(List<Shift> shifts) {
        return of(shifts, Mix.UNIFORM);
    }

    /** These shifts, weighted by the mix. */
    public static ShiftSampler of(List<Shift> given, Mix mix) {
        List<Shift> shifts = given.stream().filter(s -> mix.draws(s.tier()) || s.id().equals(UNSOLVABLE) && mix.unsolvableShare() >= 0).toList();
        boolean split = mix.unsolvableShare() >= 0 && shifts.stream().anyMatch(s -> s.id().equals(UNSOLVABLE)) && shifts.size() > 1;
        List<Shift> rest = shifts.stream().filter(s -> !split || !s.id().equals(UNSOLVABLE)).toList();
        Map<Tier, Integer> restPerTier = new LinkedHashMap<>();
        for (Shift s : rest) restPerTier.merge(s.tier(), 1, Integer::sum);
        double[] weights = new double[shifts.size()];
        for (int i = 0; i < shifts.size(); i++) {
            Shift s = shifts.get(i);
            if (split && s.id().equals(UNSOLVABLE)) {
                weights[i] = mix.unsolvableShare();
            } else {
                double w = mix.byTier() ? 1.0 / restPerTier.size() / restPerTier.get(s.tier()) : 1.0 / rest.size();
                weights[i] = split ? (1 - mix.unsolvableShare()) * w : w;
            }
        }
        return new ShiftSampler(shifts, weights, !mix.byTier() && !split && mix.tiers().isEmpty());
    }

    public boolean isEmpty() { return shifts.isEmpty(); }

    public List<Shift> shifts() { return shifts; }

    /** The probability of each shift, in order (for {@code training.json}). */
    public Map<String, Double> weights() {
        Map<String, Double> out = new LinkedHashMap<>();
        double last = 0;
        for (int i = 0; i < shifts.size(); i++) {
            out.put(shifts.get(i).id(), Math.round((cumulative[i] - last) * 1e4) / 1e4);
            last = cumulative[i];
        }
        return out;
    }

    public ShiftStack sample(SplittableRandom rnd) {
        int k = 0;
        if (uniform) {
            k = rnd.nextInt(shifts.size());
        } else {
            double u = rnd.nextDouble();
            while (k < cumulative.length - 1 && u >= cumulative[k]) k++;
        }
        Shift s = shifts.get(k);
        Map<String, String> params = new LinkedHashMap<>();
        for (ShiftParam p : s.params()) {
            params.put(p.name(), p.values().isEmpty() ? p.defaultValue() : p.values().get(rnd.nextInt(p.values().size())));
        }
        return new ShiftStack(List.of(new ShiftStack.Layer(s, params)));
    }
}
