package dev.openagent.adapt;

import dev.openagent.adapt.AdaptationStudy.Method;
import dev.openagent.adapt.AdaptationStudy.Row;
import dev.openagent.adapt.AdaptationStudy.Scenario;
import dev.openagent.adapt.AdaptationStudy.Start;
import dev.openagent.study.Findings;
import dev.openagent.study.PaperStudy.Finding;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The adaptation study's findings: each claim of the issue, held against the repairs' rows (holds, partly, does not). */
final class AdaptationFindings {
    private AdaptationFindings() {}

    public static final String HOLDS = Findings.HOLDS;
    public static final String FAILS = Findings.FAILS;
    public static final String MIXED = Findings.PARTLY;

    /** The claims the issue names, each checked against the rows. */
    static List<Finding> check(List<Row> rows, List<Scenario> scenarios) {
        List<Finding> out = new ArrayList<>();
        out.add(compare("PAFT pre-training shortens recovery (PAFT's start recovers in fewer episodes than SFT's, by the same repair)",
                rows, scenarios, Start.PAFT.id, Start.SFT.id, true));
        out.add(compare("Targeted offline adaptation recovers in fewer episodes than online RL (from the same start)",
                rows, scenarios, Method.OFFLINE.id, Method.ONLINE.id, false));
        out.add(forgetting("Targeted adaptation with replay loses at most 2 points on static", rows, Method.OFFLINE.id, 0.02));
        out.add(forgetting("Online RL loses at most 2 points on static", rows, Method.ONLINE.id, 0.02));
        out.add(others("Repairing one shift keeps the other tiers (the other scenarios' shifts pooled, at most 2 points lost)", rows));
        return out;
    }

    /**
     * Compares recovery by {@code a} against {@code b} over each pair of rows that differ only in the start
     * ({@code byStart}) or only in the method (a budget run out counts as later than any recovery): holds when
     * {@code a} is sooner in some pairs and later in none, does not hold when it is never sooner, else mixed.
     */
    private static Finding compare(String claim, List<Row> rows, List<Scenario> scenarios, String a, String b, boolean byStart) {
        int sooner = 0, later = 0, same = 0;
        List<String> evidence = new ArrayList<>();
        for (Scenario s : scenarios) {
            for (String other : byStart ? List.of(Method.OFFLINE.id, Method.ONLINE.id) : List.of(Start.SFT.id, Start.PAFT.id)) {
                Row ra = byStart ? find(rows, s.name(), a, other) : find(rows, s.name(), other, a);
                Row rb = byStart ? find(rows, s.name(), b, other) : find(rows, s.name(), other, b);
                int c = Double.compare(ra.recoveryOrInfinity(), rb.recoveryOrInfinity());
                if (c < 0) sooner++;
                else if (c > 0) later++;
                else same++;
                evidence.add(s.name() + "/" + other + " " + recovery(ra) + " vs " + recovery(rb));
            }
        }
        String verdict = sooner > 0 && later == 0 ? HOLDS : sooner == 0 ? FAILS : MIXED;
        return new Finding(claim, verdict, String.format(Locale.ROOT, "%s sooner in %d pairs, later in %d, the same in %d (%s against %s: %s)",
                a, sooner, later, same, a, b, String.join("; ", evidence)));
    }

    private static Finding forgetting(String claim, List<Row> rows, String method, double limit) {
        List<Row> trained = rows.stream().filter(r -> r.method().equals(method) && r.episodes() > 0).toList();
        if (trained.isEmpty()) return new Finding(claim, Findings.UNMEASURED, "no " + method + " repair trained (every start was already recovered)");
        double mean = trained.stream().mapToDouble(Row::staticChange).average().orElseThrow();
        double worst = trained.stream().mapToDouble(Row::staticChange).min().orElseThrow();
        long within = trained.stream().filter(r -> r.staticChange() >= -limit).count();
        String verdict = mean >= -limit && within == trained.size() ? HOLDS : mean >= -limit ? MIXED : FAILS;
        return new Finding(claim, verdict, String.format(Locale.ROOT,
                "static change over the %d %s repairs that trained: mean %+.3f, worst %+.3f, %d within %.0f points (%s)", trained.size(), method,
                mean, worst, within, limit * 100, String.join("; ", trained.stream().map(r -> r.scenario() + "/" + r.start() + " "
                        + String.format(Locale.ROOT, "%+.3f", r.staticChange())).toList())));
    }

    private static Finding others(String claim, List<Row> rows) {
        List<Row> trained = rows.stream().filter(r -> r.episodes() > 0).toList();
        if (trained.isEmpty()) return new Finding(claim, Findings.UNMEASURED, "no repair trained");
        List<String> evidence = new ArrayList<>();
        for (Method m : Method.values()) {
            List<Row> mine = trained.stream().filter(r -> r.method().equals(m.id)).toList();
            if (mine.isEmpty()) continue;
            evidence.add(String.format(Locale.ROOT, "%s: mean %+.3f, worst %+.3f over %d repairs", m.id,
                    mine.stream().mapToDouble(Row::othersChange).average().orElseThrow(), mine.stream().mapToDouble(Row::othersChange).min().orElseThrow(),
                    mine.size()));
        }
        double mean = trained.stream().mapToDouble(Row::othersChange).average().orElseThrow();
        long within = trained.stream().filter(r -> r.othersChange() >= -0.02).count();
        String verdict = within == trained.size() ? HOLDS : mean >= -0.02 ? MIXED : FAILS;
        return new Finding(claim, verdict, String.join("; ", evidence));
    }

    private static Row find(List<Row> rows, String scenario, String start, String method) {
        return rows.stream().filter(r -> r.scenario().equals(scenario) && r.start().equals(start) && r.method().equals(method)).findFirst().orElseThrow();
    }

    /** A row's recovery as the tables print it: {@code 256}, or {@code >1024} when the budget ran out. */
    public static String recovery(Row r) {
        return r.recoveredAt() == null ? ">" + r.episodes() : Long.toString(r.recoveredAt());
    }

}
