package dev.openagent.junit;

import dev.openagent.metrics.Failure;
import dev.openagent.metrics.GroupMetrics;
import dev.openagent.report.Transcript;
import dev.openagent.results.EpisodeResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Fluent assertions on a {@link RobustnessResult}. A check applies to every condition selected (all
 * of them at first, each on its own); {@code onShift}, {@code onShifts}, {@code onTier} and
 * {@code onEveryShift} change the selection for the checks that follow:
 *
 * <pre>{@code
 * assertThat(result).successAtLeast(0.8)                              // every condition
 *         .onShift("tool.semantic-rename").dropAtMost(0.10)           // then one shift
 *         .onShift("task.unsolvable").refusesUnsolvable(0.9);
 * }</pre>
 *
 * A failed check throws an {@link AssertionError} that names the conditions below the bar, the
 * worst shifts of the run, one failing episode's transcript (and the agent's own) and the report.
 * Rates are over scored episodes (infrastructure errors are not scored); thresholds are fractions.
 */
public final class RobustnessAssert {
    private static final int MAX_TRANSCRIPT_CHARS = 6_000;

    private final RobustnessResult result;
    private final List<String> selection;
    private final String scope;

    private RobustnessAssert(RobustnessResult result, List<String> selection, String scope) {
        this.result = result;
        this.selection = List.copyOf(selection);
        this.scope = scope;
    }

    public static RobustnessAssert assertThat(RobustnessResult result) {
        if (result == null) throw new IllegalArgumentException("no result: the test method must take the RobustnessResult of its @AgentRobustness run");
        return new RobustnessAssert(result, result.shifts(), "every condition");
    }

    // --- selection ---

    /** The checks that follow apply to this condition ({@code none} is the unshifted one). */
    public RobustnessAssert onShift(String shift) {
        shiftOrFail(shift);
        return new RobustnessAssert(result, List.of(shift), shift);
    }

    public RobustnessAssert onShifts(String... shifts) {
        if (shifts.length == 0) throw new IllegalArgumentException("onShifts needs at least one shift");
        for (String s : shifts) shiftOrFail(s);
        return new RobustnessAssert(result, Arrays.asList(shifts), String.join(", ", shifts));
    }

    /** The conditions of one tier ({@code perception}, {@code interaction}, {@code reasoning}, {@code internalization}), each on its own. */
    public RobustnessAssert onTier(String tier) {
        List<String> shifts = result.shifts().stream().filter(s -> tier.equals(result.tier(s))).toList();
        if (shifts.isEmpty()) throw new AssertionError("no condition of tier '" + tier + "' in this run (conditions: " + String.join(", ", result.shifts()) + ")");
        return new RobustnessAssert(result, shifts, "tier " + tier);
    }

    public RobustnessAssert onEveryShift() { return assertThat(result); }

    private String shiftOrFail(String shift) {
        if (!result.shifts().contains(shift)) {
            throw new AssertionError("no condition '" + shift + "' in this run (conditions: " + String.join(", ", result.shifts()) + ")");
        }
        return shift;
    }

    // --- checks ---

    /** Success rate at least {@code min} on each selected condition. */
    public RobustnessAssert successAtLeast(double min) {
        fraction("successAtLeast", min);
        return check(String.format(Locale.ROOT, "success below %.2f", min),
                m -> m.successRate() != null && m.successRate() >= min, e -> !e.success());
    }

    /**
     * The lower end of the success rate's 95% Wilson interval at least {@code min} on each selected
     * condition: a claim about the agent, not about this sample of tasks.
     */
    public RobustnessAssert successLowerBoundAtLeast(double min) {
        fraction("successLowerBoundAtLeast", min);
        return check(String.format(Locale.ROOT, "95%% lower bound of success below %.2f", min),
                m -> m.successCi() != null && m.successCi()[0] >= min, e -> !e.success());
    }

    /**
     * Success under each selected shift at most {@code points} (a fraction: 0.10 is ten percentage
     * points) below success without shifts, on the same tasks.
     */
    public RobustnessAssert dropAtMost(double points) {
        fraction("dropAtMost", points);
        return check(String.format(Locale.ROOT, "success more than %.1f points below none", 100 * points),
                m -> m.delta() == null || -m.delta().absolute() <= points + 1e-9, e -> !e.success());
    }

    /** Every unsolvable task of the selected conditions refused ({@code task.unsolvable} makes them). */
    public RobustnessAssert refusesUnsolvable() { return refusesUnsolvable(1.0); }

    /** At least {@code atLeast} of the unsolvable tasks of each selected condition refused. */
    public RobustnessAssert refusesUnsolvable(double atLeast) {
        fraction("refusesUnsolvable", atLeast);
        boolean any = selection.stream().anyMatch(s -> result.metrics(s).refusalRate() != null);
        if (!any) {
            throw new AssertionError("refusesUnsolvable: no unsolvable task under " + scope + " of agent '" + result.agent()
                    + "' (add task.unsolvable to the shift spec and select it with onShift(\"task.unsolvable\"))");
        }
        return check(String.format(Locale.ROOT, "refused fewer than %.2f of unsolvable tasks", atLeast),
                m -> m.refusalRate() == null || m.refusalRate() >= atLeast - 1e-9, e -> !e.solvable() && !e.success());
    }

    /** At most {@code max} of the solvable tasks of each selected condition refused. */
    public RobustnessAssert falseRefusalsAtMost(double max) {
        fraction("falseRefusalsAtMost", max);
        return check(String.format(Locale.ROOT, "refused more than %.2f of solvable tasks", max),
                m -> m.falseRefusalRate() == null || m.falseRefusalRate() <= max + 1e-9,
                e -> e.solvable() && e.outcome().refused());
    }

    /** At most {@code max} of the scored episodes of each selected condition in one failure category ({@code agent_error}, {@code hallucinated_tool}...). */
    public RobustnessAssert failuresAtMost(String category, double max) {
        fraction("failuresAtMost", max);
        Failure f = Arrays.stream(Failure.values()).filter(x -> x.id().equals(category)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown failure category '" + category + "' (known: "
                        + String.join(", ", Arrays.stream(Failure.values()).map(Failure::id).toList()) + ")"));
        return check(String.format(Locale.ROOT, "more than %.2f of episodes %s", max, category),
                m -> m.scored() == 0 || m.failures().getOrDefault(category, 0) <= max * m.scored() + 1e-9,
                e -> result.failure(e) == f);
    }

    private static void fraction(String check, double v) {
        if (!(v >= 0 && v <= 1)) throw new IllegalArgumentException(check + " takes a fraction between 0 and 1, not " + v);
    }

    /**
     * Fails unless every selected condition passes; a condition without scored episodes never passes.
     *
     * @param failing which episodes show the problem (one is printed)
     */
    private RobustnessAssert check(String what, Predicate<GroupMetrics> passes, Predicate<EpisodeResult> failing) {
        List<String> below = new ArrayList<>();
        for (String s : selection) {
            GroupMetrics m = result.metrics(s);
            if (m.scored() == 0 || !passes.test(m)) below.add(s);
        }
        if (below.isEmpty()) return this;
        throw new AssertionError(message(what, below, failing));
    }

    private String message(String what, List<String> below, Predicate<EpisodeResult> failing) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "agent '%s' on %s (%d tasks, seed %d): %s on %d of %d condition(s) (%s)%n",
                result.agent(), result.env(), result.tasks(), result.seed(), what, below.size(), selection.size(), scope));
        for (String s : below) sb.append("  ").append(line(s)).append('\n');
        List<String> worst = result.shifts().stream().filter(s -> result.metrics(s).successRate() != null)
                .sorted(Comparator.comparingDouble(s -> result.metrics(s).successRate())).limit(3).toList();
        sb.append("worst shifts: ").append(String.join(", ", worst.stream()
                .map(s -> s + " " + RobustnessResult.rate(result.metrics(s).successRate())).toList())).append('\n');
        below.stream().sorted(Comparator.comparingDouble(s -> rateOrZero(result.metrics(s).successRate())))
                .flatMap(s -> result.episodes(s).stream()).filter(e -> !e.infraError() && e.trajectory() != null && failing.test(e))
                .findFirst().ifPresent(e -> example(sb, e));
        sb.append("report: ").append(result.report().toAbsolutePath().normalize());
        return sb.toString();
    }

    private String line(String s) {
        GroupMetrics m = result.metrics(s);
        if (m.scored() == 0) {
            String first = result.episodes(s).stream().filter(EpisodeResult::infraError).map(e -> e.outcome().detail()).findFirst().orElse("-");
            return s + ": no scored episode (" + m.errors() + " infrastructure errors; first: " + first + ")";
        }
        StringBuilder sb = new StringBuilder(s).append(": success ").append(RobustnessResult.rate(m.successRate())).append(' ')
                .append(RobustnessResult.ci(m.successCi())).append(" over ").append(m.scored()).append(" scored episodes");
        if (m.delta() != null) sb.append(String.format(Locale.ROOT, ", %+.1f points vs none", 100 * m.delta().absolute()));
        if (m.refusalRate() != null) sb.append(", refused ").append(RobustnessResult.rate(m.refusalRate())).append(" of unsolvable");
        if (m.falseRefusalRate() != null && m.falseRefusalRate() > 0) sb.append(", refused ").append(RobustnessResult.rate(m.falseRefusalRate())).append(" of solvable");
        String f = RobustnessResult.failures(m, 3);
        if (!f.isEmpty()) sb.append("; failures: ").append(f);
        if (m.errors() > 0) sb.append("; ").append(m.errors()).append(" infrastructure errors not scored");
        return sb.toString();
    }

    private void example(StringBuilder sb, EpisodeResult e) {
        sb.append(String.format(Locale.ROOT, "example failing episode (%s, task %s, failure %s):%n", e.shift(), e.trajectory().taskId(),
                result.failure(e).id()));
        sb.append(abbreviate(Transcript.render(e.trajectory(), false)));
        var own = result.transcript(e);
        if (!own.isEmpty()) sb.append("the agent's own transcript (what its framework sent and received):\n").append(abbreviate(own.render()));
    }

    private static double rateOrZero(Double r) { return r == null ? 0 : r; }

    private static String abbreviate(String s) {
        return s.length() <= MAX_TRANSCRIPT_CHARS ? s : s.substring(0, MAX_TRANSCRIPT_CHARS) + "\n... (" + (s.length() - MAX_TRANSCRIPT_CHARS)
                + " more characters: see the report)\n";
    }
}
