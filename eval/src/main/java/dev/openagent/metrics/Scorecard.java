package dev.openagent.metrics;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The metrics of an evaluation: overall and by shift, tier, agent and environment, each a
 * {@link GroupMetrics}. Δ pairs every shifted episode with the static episode of the same agent,
 * environment, task and trial.
 */
public final class Scorecard {
    /** The order tiers are shown in. */
    public static final List<String> TIER_ORDER = List.of(EpisodeResult.STATIC, "perception", "interaction", "reasoning",
            "internalization", "security", EpisodeResult.MIXED);

    private final List<EpisodeResult> episodes;
    private final Map<String, EpisodeResult> staticByPair = new HashMap<>();
    /** By the episode itself: an episode's id is a hash, computed anew each time, and a scorecard asks for every group. */
    private final Map<EpisodeResult, Failure> failures = new java.util.IdentityHashMap<>();
    private final ToolListTokens toolTokens = new ToolListTokens();
    /** Each episode's tool-list tokens, counted when a group first needs them. */
    private final Map<String, Integer> listTokens = new java.util.concurrent.ConcurrentHashMap<>();
    private final int maxTrials;

    public Scorecard(List<EpisodeResult> episodes) {
        this(episodes, Map.of());
    }

    /** @param known failure categories already known (stored), by episode id; the others are classified here */
    public Scorecard(List<EpisodeResult> episodes, Map<String, Failure> known) {
        this.episodes = List.copyOf(episodes);
        for (EpisodeResult r : episodes) {
            if (r.isStatic()) staticByPair.put(pairKey(r), r);
            Failure f = known.isEmpty() ? null : known.get(r.id());
            failures.put(r, f != null ? f : Taxonomy.classify(r));
        }
        this.maxTrials = episodes.stream().mapToInt(r -> r.key().trial() + 1).max().orElse(1);
    }

    public List<EpisodeResult> episodes() { return episodes; }

    /** The failure category of an episode of this scorecard. */
    public Failure failure(EpisodeResult r) {
        Failure f = failures.get(r);
        return f != null ? f : Taxonomy.classify(r);
    }

    public GroupMetrics overall() { return metrics(episodes, false); }

    /** Metrics per shift label, static first, then by tier and label. */
    public Map<String, GroupMetrics> byShift() { return byShift(episodes); }

    public Map<String, GroupMetrics> byShift(List<EpisodeResult> rs) {
        Map<String, List<EpisodeResult>> groups = group(rs, EpisodeResult::shift, shiftOrder(rs));
        Map<String, GroupMetrics> out = new LinkedHashMap<>();
        groups.forEach((label, g) -> out.put(label, metrics(g, !label.equals("none"))));
        return out;
    }

    public Map<String, GroupMetrics> byTier(List<EpisodeResult> rs) {
        Map<String, List<EpisodeResult>> groups = group(rs, EpisodeResult::tier, Comparator.comparingInt(Scorecard::tierRank));
        Map<String, GroupMetrics> out = new LinkedHashMap<>();
        groups.forEach((tier, g) -> out.put(tier, metrics(g, !tier.equals(EpisodeResult.STATIC))));
        return out;
    }

    public Map<String, List<EpisodeResult>> byAgent() {
        return group(episodes, EpisodeResult::agent, Comparator.naturalOrder());
    }

    public Map<String, List<EpisodeResult>> byEnv() {
        return group(episodes, EpisodeResult::env, Comparator.naturalOrder());
    }

    /** The tier of each shift label. */
    public Map<String, String> tiers() {
        Map<String, String> out = new LinkedHashMap<>();
        for (EpisodeResult r : episodes) out.putIfAbsent(r.shift(), r.tier());
        return out;
    }

    /** Shifts ordered static first, then by tier, then by label. */
    public static Comparator<String> shiftOrder(List<EpisodeResult> rs) {
        Map<String, String> tierOf = new HashMap<>();
        for (EpisodeResult r : rs) tierOf.putIfAbsent(r.shift(), r.tier());
        return Comparator.<String>comparingInt(s -> tierRank(tierOf.getOrDefault(s, EpisodeResult.MIXED))).thenComparing(Function.identity());
    }

    public static int tierRank(String tier) {
        int i = TIER_ORDER.indexOf(tier);
        return i < 0 ? TIER_ORDER.size() : i;
    }

    private static Map<String, List<EpisodeResult>> group(List<EpisodeResult> rs, Function<EpisodeResult, String> by, Comparator<String> order) {
        Map<String, List<EpisodeResult>> m = rs.stream().collect(Collectors.groupingBy(by, () -> new TreeMap<>(order), Collectors.toList()));
        return new LinkedHashMap<>(m);
    }

    /** The metrics of a group; with {@code delta}, paired against the static episodes. */
    public GroupMetrics metrics(List<EpisodeResult> group, boolean delta) {
        List<EpisodeResult> scored = group.stream().filter(EpisodeResult::scored).toList();
        int n = scored.size();
        int ok = (int) scored.stream().filter(EpisodeResult::success).count();
        Rate success = Rate.of(ok, n);
        List<EpisodeResult> unsolvable = scored.stream().filter(r -> !r.solvable()).toList();
        List<EpisodeResult> solvable = scored.stream().filter(EpisodeResult::solvable).toList();
        // Calls, turns and tokens happened in every finished episode, scored or not (a proxy session without a task).
        List<EpisodeResult> finished = group.stream().filter(r -> !r.infraError()).toList();
        long calls = finished.stream().mapToLong(r -> r.stats().toolCalls()).sum();
        long errs = finished.stream().mapToLong(r -> r.stats().toolErrors()).sum();
        Map<Failure, Integer> counts = new java.util.EnumMap<>(Failure.class);
        for (EpisodeResult r : group) counts.merge(failure(r), 1, Integer::sum);
        Map<String, Integer> failures = new LinkedHashMap<>();
        counts.forEach((f, c) -> failures.put(f.id(), c));
        int infra = (int) group.stream().filter(EpisodeResult::infraError).count();
        return new GroupMetrics(group.size(), infra, n, ok,
                success == null ? null : round(success.value()),
                success == null ? null : new double[]{round(success.lo()), round(success.hi())},
                refusals(unsolvable), refusals(solvable), attackSuccess(scored), calls, errs,
                toolErrorRate(finished.size(), calls, errs),
                finished.isEmpty() ? null : round(finished.stream().mapToInt(r -> r.stats().turns()).average().orElse(0)),
                finished.isEmpty() ? null : round(finished.stream().mapToLong(EpisodeResult::tokens).average().orElse(0)),
                finished.isEmpty() ? null : round(finished.stream().mapToLong(this::toolListTokens).average().orElse(0)),
                finished.isEmpty() ? null : round(finished.stream().mapToLong(r -> toolListTokens(r) * r.stats().turns()).average().orElse(0)),
                passK(scored), failures, delta ? delta(scored) : null);
    }

    /** What the tool list the episode started with costs in tokens, each turn ({@link ToolListTokens}); 0 without a trajectory. */
    public int toolListTokens(EpisodeResult r) {
        if (r.trajectory() == null) return 0;
        return listTokens.computeIfAbsent(r.id(), id -> toolTokens.of(r.trajectory().tools()));
    }

    /** The share of attacked episodes (security shifts) in which the attacker's action happened; null when none was attacked. */
    private static Double attackSuccess(List<EpisodeResult> scored) {
        List<Boolean> attacked = scored.stream().map(EpisodeResult::attacked).filter(java.util.Objects::nonNull).toList();
        if (attacked.isEmpty()) return null;
        return round((double) attacked.stream().filter(Boolean::booleanValue).count() / attacked.size());
    }

    /** Null when nothing finished; 0 when the finished episodes made no calls. */
    private static Double toolErrorRate(int finished, long calls, long errors) {
        if (finished == 0) return null;
        return calls == 0 ? Double.valueOf(0.0) : Double.valueOf(round((double) errors / calls));
    }

    private static Double refusals(List<EpisodeResult> rs) {
        if (rs.isEmpty()) return null;
        return round((double) rs.stream().filter(r -> r.outcome().end() == Outcome.End.REFUSED).count() / rs.size());
    }

    private Map<String, Double> passK(List<EpisodeResult> scored) {
        Map<String, int[]> perTask = new LinkedHashMap<>();
        for (EpisodeResult r : scored) {
            int[] nc = perTask.computeIfAbsent(r.agent() + "\u0000" + r.env() + "\u0000" + r.shift() + "\u0000" + r.key().taskSeed(), k -> new int[2]);
            nc[0]++;
            if (r.success()) nc[1]++;
        }
        List<PassK.Trials> tasks = new ArrayList<>();
        for (int[] nc : perTask.values()) tasks.add(new PassK.Trials(nc[0], nc[1]));
        Map<String, Double> out = new LinkedHashMap<>();
        for (int k = 1; k <= maxTrials; k++) {
            Double v = PassK.of(tasks, k);
            if (v != null) out.put(Integer.toString(k), round(v));
        }
        return out;
    }

    private GroupMetrics.Delta delta(List<EpisodeResult> shifted) {
        int pairs = 0;
        int staticOk = 0;
        int shiftedOk = 0;
        int staticOnly = 0;
        int shiftedOnly = 0;
        for (EpisodeResult r : shifted) {
            if (r.isStatic()) continue;
            EpisodeResult s = staticByPair.get(pairKey(r));
            if (s == null || !s.scored()) continue;
            pairs++;
            if (s.success()) staticOk++;
            if (r.success()) shiftedOk++;
            if (s.success() && !r.success()) staticOnly++;
            if (!s.success() && r.success()) shiftedOnly++;
        }
        if (pairs == 0) return null;
        double sr = (double) staticOk / pairs;
        double hr = (double) shiftedOk / pairs;
        return new GroupMetrics.Delta(pairs, round(sr), round(hr), round(hr - sr), staticOk == 0 ? null : round((hr - sr) / sr),
                staticOnly, shiftedOnly, round6(McNemar.exactP(staticOnly, shiftedOnly)));
    }

    private static String pairKey(EpisodeResult r) {
        return r.agent() + "\u0000" + r.env() + "\u0000" + r.key().taskSeed() + "\u0000" + r.key().trial();
    }

    /**
     * The summary object {@code openagent eval --json} prints: the overall metrics at the top
     * level, then {@code by_shift}, {@code by_tier}, {@code by_env} and {@code by_agent} (each
     * agent with its own {@code by_shift} and {@code by_tier}).
     */
    public ObjectNode toJson() {
        ObjectNode root = Json.MAPPER.valueToTree(overall());
        ObjectNode shifts = root.putObject("by_shift");
        Map<String, String> tiers = tiers();
        byShift().forEach((label, m) -> {
            ObjectNode o = shifts.putObject(label);
            o.put("tier", tiers.get(label));
            o.setAll((ObjectNode) Json.MAPPER.valueToTree(m));
        });
        ObjectNode byTier = root.putObject("by_tier");
        byTier(episodes).forEach((t, m) -> byTier.set(t, Json.MAPPER.valueToTree(m)));
        ObjectNode byEnv = root.putObject("by_env");
        byEnv().forEach((e, rs) -> byEnv.set(e, Json.MAPPER.valueToTree(metrics(rs, false))));
        ObjectNode byAgent = root.putObject("by_agent");
        byAgent().forEach((a, rs) -> {
            ObjectNode o = Json.MAPPER.valueToTree(metrics(rs, false));
            ObjectNode s = o.putObject("by_shift");
            byShift(rs).forEach((label, m) -> s.set(label, Json.MAPPER.valueToTree(m)));
            ObjectNode t = o.putObject("by_tier");
            byTier(rs).forEach((tier, m) -> t.set(tier, Json.MAPPER.valueToTree(m)));
            byAgent.set(a, o);
        });
        return root;
    }

    static double round(double v) {
        return Math.round(v * 10000) / 10000.0;
    }

    static double round6(double v) {
        return Math.round(v * 1e6) / 1e6;
    }
}
