package dev.openagent.junit;

import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.GroupMetrics;
import dev.openagent.metrics.Scorecard;
import dev.openagent.results.EpisodeResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What a robustness test measured: every episode with its score and failure category, the metrics
 * per condition (the unshifted one, {@code none}, first) with 95% intervals and the paired change
 * against {@code none}, the agent's own transcripts, and where the report is. Assert on it with
 * {@link RobustnessAssert#assertThat}.
 */
public final class RobustnessResult {
    private final String agent;
    private final RobustnessPlan plan;
    private final List<EpisodeResult> episodes;
    private final Map<String, AgentTranscript> transcripts;
    private final Scorecard card;
    private final Map<String, GroupMetrics> byShift;
    private final Path reportDir;

    RobustnessResult(String agent, RobustnessPlan plan, List<RobustnessRunner.Episode> episodes, Path reportDir) {
        this.agent = agent;
        this.plan = plan;
        this.episodes = episodes.stream().map(RobustnessRunner.Episode::result).toList();
        Map<String, AgentTranscript> t = new LinkedHashMap<>();
        for (RobustnessRunner.Episode e : episodes) if (!e.transcript().isEmpty()) t.put(e.result().id(), e.transcript());
        this.transcripts = Map.copyOf(t);
        this.card = new Scorecard(this.episodes);
        // conditions in plan order (none first), each with its metrics
        Map<String, GroupMetrics> metrics = card.byShift();
        Map<String, GroupMetrics> ordered = new LinkedHashMap<>();
        for (String label : plan.conditions().stream().map(c -> c.label()).distinct().toList()) ordered.put(label, metrics.get(label));
        this.byShift = ordered;
        this.reportDir = reportDir;
    }

    public String agent() { return agent; }

    public String env() { return plan.env(); }

    /** The shift spec the test asked for. */
    public String shiftSpec() { return plan.shiftSpec(); }

    public int tasks() { return plan.experiment().tasks(); }

    public long seed() { return plan.experiment().seed(); }

    /** The conditions run, {@code none} first, as shift labels ({@code tool.semantic-rename}, {@code a+b}...). */
    public List<String> shifts() { return List.copyOf(byShift.keySet()); }

    /** The spec's shifts that were left out because they do not apply to the environment, with why. */
    public List<String> notApplicable() { return plan.notApplicable(); }

    /** The metrics of one condition. @throws IllegalArgumentException when the run has no such condition */
    public GroupMetrics metrics(String shift) {
        GroupMetrics m = byShift.get(shift);
        if (m == null) throw new IllegalArgumentException("no condition '" + shift + "' in this run (conditions: " + String.join(", ", shifts()) + ")");
        return m;
    }

    /** The tier of a condition ({@code static} for none). */
    public String tier(String shift) { return card.tiers().get(shift); }

    public List<EpisodeResult> episodes() { return episodes; }

    public List<EpisodeResult> episodes(String shift) {
        metrics(shift);
        return episodes.stream().filter(e -> e.shift().equals(shift)).toList();
    }

    /** The failure category of an episode. */
    public Failure failure(EpisodeResult e) { return card.failure(e); }

    /** What the agent's framework sent and received in an episode (empty for agents that record none). */
    public AgentTranscript transcript(EpisodeResult e) { return transcripts.getOrDefault(e.id(), AgentTranscript.NONE); }

    Map<String, AgentTranscript> transcripts() { return transcripts; }

    /** The report's directory: {@code report.html}, {@code report.md}, {@code summary.json}, {@code trajectories.jsonl}. */
    public Path reportDir() { return reportDir; }

    public Path report() { return reportDir.resolve("report.html"); }

    /** The per-shift table the test prints. */
    public String table() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "OpenAgent robustness of '%s' on %s: %d tasks x %d trial(s), seed %d, %s split, shifts '%s'%n",
                agent, env(), tasks(), plan.experiment().trials(), seed(), plan.experiment().splitValue().id(), shiftSpec()));
        int w = Math.max(5, byShift.keySet().stream().mapToInt(String::length).max().orElse(5));
        sb.append(String.format(Locale.ROOT, "  %-" + w + "s  %-15s %5s %8s  %-16s %10s %8s  %s%n", "shift", "tier", "n", "success", "95% CI",
                "vs none", "refusal", "most frequent failure"));
        byShift.forEach((shift, m) -> sb.append(String.format(Locale.ROOT, "  %-" + w + "s  %-15s %5d %8s  %-16s %10s %8s  %s%n", shift,
                tier(shift), m.scored(), rate(m.successRate()), ci(m.successCi()),
                m.delta() == null ? "-" : String.format(Locale.ROOT, "%+.1f pp", 100 * m.delta().absolute()),
                rate(m.refusalRate()), topFailure(m))));
        int errors = episodes.stream().mapToInt(e -> e.infraError() ? 1 : 0).sum();
        if (errors > 0) sb.append("  ").append(errors).append(" episode(s) ended in an infrastructure error and are not scored (first: ")
                .append(episodes.stream().filter(EpisodeResult::infraError).findFirst().orElseThrow().outcome().detail()).append(")\n");
        if (!notApplicable().isEmpty()) sb.append("  not applicable: ").append(String.join("; ", notApplicable())).append('\n');
        sb.append("  report: ").append(report().toAbsolutePath().normalize()).append('\n');
        return sb.toString();
    }

    static String rate(Double r) { return r == null ? "-" : String.format(Locale.ROOT, "%.3f", r); }

    static String ci(double[] ci) { return ci == null ? "-" : String.format(Locale.ROOT, "[%.3f, %.3f]", ci[0], ci[1]); }

    /** The most frequent failure categories of a condition, as "category count, ..." (at most three). */
    static String failures(GroupMetrics m, int max) {
        List<Map.Entry<String, Integer>> fs = new ArrayList<>(m.failures().entrySet());
        fs.removeIf(e -> e.getKey().equals(Failure.SUCCESS.id()) || e.getValue() == 0);
        fs.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        return fs.stream().limit(max).map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "));
    }

    private static String topFailure(GroupMetrics m) {
        String f = failures(m, 1);
        return f.isEmpty() ? "-" : f;
    }
}
