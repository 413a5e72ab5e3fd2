package dev.openagent.policy;

import dev.openagent.UserInputException;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftCatalog;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Draws the shift of a perturbed training episode (PAFT, shifted RL rollouts): a shift chosen
 * among those that apply to the environment with a weight each, its enumerated parameters
 * (severity, format, ...) drawn uniformly from their values, the others at their defaults.
 * How the weights are spread is the PAFT mix ({@link Mix}): uniformly over shifts, uniformly over
 * tiers, and an optional fixed share for one shift (the refusal demonstrations of
 * {@code task.unsolvable}). A sampler can also draw given shifts and compositions at given weights with their
 * severities limited ({@link #weighted}): the focus a robustness frontier writes.
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
            if (unsolvableShare >= 1) throw new UserInputException("the unsolvable share must be below 1");
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

    /**
     * One kind of perturbed episode a sampler draws: one shift, or several composed, each with the values its
     * enumerated parameters are drawn from (uniformly; a parameter not listed is drawn from all its values, one
     * without enumerated values stays at its default).
     */
    public record Draw(List<Layer> layers) {
        public Draw {
            if (layers.isEmpty()) throw new IllegalArgumentException("a draw has at least one shift");
            layers = List.copyOf(layers);
        }

        /** A shift with every enumerated parameter drawn from all its values. */
        public static Draw of(Shift shift) { return new Draw(List.of(new Layer(shift, Map.of()))); }

        /** The shift ids joined by '+', each with the parameter values it is limited to: {@code query.noise:severity=2|3}. */
        public String label() {
            List<String> parts = new ArrayList<>();
            for (Layer l : layers) {
                StringBuilder sb = new StringBuilder(l.shift().id());
                String sep = ":";
                for (var e : new TreeMap<>(l.values()).entrySet()) {
                    sb.append(sep).append(e.getKey()).append('=').append(String.join("|", e.getValue()));
                    sep = ",";
                }
                parts.add(sb.toString());
            }
            return String.join("+", parts);
        }
    }

    /** A shift of a draw, with the values some of its enumerated parameters are limited to. */
    public record Layer(Shift shift, Map<String, List<String>> values) {
        public Layer {
            Map<String, List<String>> copy = new LinkedHashMap<>();
            for (var e : values.entrySet()) {
                ShiftParam p = shift.params().stream().filter(x -> x.name().equals(e.getKey())).findFirst().orElseThrow(() ->
                        new UserInputException(shift.id() + " has no parameter '" + e.getKey() + "'"));
                if (e.getValue().isEmpty() || !p.values().containsAll(e.getValue())) {
                    throw new UserInputException(shift.id() + " parameter " + p.name() + " is drawn from some of " + p.values() + ", not " + e.getValue());
                }
                copy.put(e.getKey(), List.copyOf(e.getValue()));
            }
            values = Collections.unmodifiableMap(copy);
        }
    }

    private final List<Draw> draws;
    /** Cumulative weights, one per draw, the last 1. */
    private final double[] cumulative;
    /** Every shift equally likely: drawn as before weights existed, so uniform draws (and exports) stay the same. */
    private final boolean uniform;

    private ShiftSampler(List<Draw> draws, double[] weights, boolean uniform) {
        this.draws = List.copyOf(draws);
        this.uniform = uniform;
        this.cumulative = new double[draws.size()];
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
        return new ShiftSampler(shifts.stream().map(Draw::of).toList(), weights, !mix.byTier() && !split && mix.tiers().isEmpty());
    }

    /**
     * These draws with these weights (relative: they need not sum to 1), for a sampler aimed at chosen shifts and
     * severities (the focus of a robustness frontier, {@code dev.openagent.focus}).
     */
    public static ShiftSampler weighted(List<Draw> draws, List<Double> weights) {
        if (draws.size() != weights.size()) throw new IllegalArgumentException("one weight per draw");
        double[] w = new double[weights.size()];
        for (int i = 0; i < w.length; i++) {
            if (!(weights.get(i) > 0)) throw new UserInputException("draw weights must be positive, got " + weights.get(i));
            w[i] = weights.get(i);
        }
        return new ShiftSampler(draws, w, false);
    }

    public boolean isEmpty() { return draws.isEmpty(); }

    /** The shifts drawn from, each once, in the order of the draws. */
    public List<Shift> shifts() {
        return draws.stream().flatMap(d -> d.layers().stream()).map(Layer::shift).distinct().toList();
    }

    public List<Draw> draws() { return draws; }

    /** The probability of each draw, by its label, in order (for {@code training.json}; a catalog sampler's labels are the shift ids). */
    public Map<String, Double> weights() {
        Map<String, Double> out = new LinkedHashMap<>();
        double last = 0;
        for (int i = 0; i < draws.size(); i++) {
            out.put(draws.get(i).label(), Math.round((cumulative[i] - last) * 1e4) / 1e4);
            last = cumulative[i];
        }
        return out;
    }

    public ShiftStack sample(SplittableRandom rnd) {
        int k = 0;
        if (uniform) {
            k = rnd.nextInt(draws.size());
        } else {
            double u = rnd.nextDouble();
            while (k < cumulative.length - 1 && u >= cumulative[k]) k++;
        }
        List<ShiftStack.Layer> layers = new ArrayList<>();
        for (Layer l : draws.get(k).layers()) {
            Map<String, String> params = new LinkedHashMap<>();
            for (ShiftParam p : l.shift().params()) {
                List<String> values = l.values().getOrDefault(p.name(), p.values());
                params.put(p.name(), values.isEmpty() ? p.defaultValue() : values.get(rnd.nextInt(values.size())));
            }
            layers.add(new ShiftStack.Layer(l.shift(), params));
        }
        return new ShiftStack(layers);
    }
}
