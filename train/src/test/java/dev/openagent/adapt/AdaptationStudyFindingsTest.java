package dev.openagent.adapt;

import dev.openagent.adapt.AdaptationStudy.Budget;
import dev.openagent.study.PaperStudy.Finding;
import dev.openagent.adapt.AdaptationStudy.Point;
import dev.openagent.adapt.AdaptationStudy.Row;
import dev.openagent.adapt.AdaptationStudy.Scenario;
import dev.openagent.policy.PolicyEval.Figures;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The study's verdicts, from rows written here: what each claim requires of the rows, per case. */
class AdaptationStudyFindingsTest {
    private static final List<Scenario> TWO = List.of(new Scenario("interaction", "obs.runtime-error", "test"),
            new Scenario("perception", "tool.name-noise", "test"));
    private static final Budget BUDGET = Budget.quick();

    /** 100 episodes at a rate. */
    private static Figures rate(double r) {
        int k = (int) Math.round(r * 100);
        return new Figures(100, k, k / 100.0, Math.max(0, k / 100.0 - 0.08), Math.min(1, k / 100.0 + 0.08), 0);
    }

    /** A row: recovered at {@code at} (null: not within the budget), static after {@code staticAfter} (from 0.98), others after (from 0.60). */
    private static Row row(String scenario, String start, String method, Long at, double staticAfter, double othersAfter) {
        long spent = at == null ? BUDGET.episodes() : at;
        return new Row(scenario, "x", "t", start, method, rate(0.98), rate(staticAfter), rate(0.3), rate(at == null ? 0.5 : 0.95), rate(0.60),
                rate(othersAfter), at, spent, List.of(new Point(0, rate(0.3))), 1);
    }

    /** Every row of the two scenarios: recovery per (start, method) as given, static and others kept. */
    private static List<Row> rows(Map<String, Long> recovery) {
        List<Row> out = new ArrayList<>();
        for (Scenario s : TWO) {
            for (String start : List.of("sft", "paft")) {
                for (String method : List.of("offline", "online")) {
                    String key = s.name() + "/" + start + "/" + method;
                    Long at = recovery.containsKey(key) ? recovery.get(key) : (Long) 256L;
                    out.add(row(s.name(), start, method, at, 0.98, 0.60));
                }
            }
        }
        return out;
    }

    private static Finding finding(List<Row> rows, String claimStart) {
        return AdaptationFindings.check(rows, TWO).stream().filter(f -> f.claim().startsWith(claimStart)).findFirst().orElseThrow();
    }

    @Test
    void paftShortensRecoveryWhenItIsSoonerSomewhereAndLaterNowhere() {
        Map<String, Long> m = new java.util.HashMap<>();
        m.put("interaction/paft/offline", 0L); // sooner than sft's 256; every other pair the same
        assertEquals(AdaptationFindings.HOLDS, finding(rows(m), "PAFT pre-training").verdict());
        m.put("perception/paft/online", null); // the budget ran out: later than any recovery
        Finding mixed = finding(rows(m), "PAFT pre-training");
        assertEquals(AdaptationFindings.MIXED, mixed.verdict());
        assertTrue(mixed.evidence().contains("sooner in 1 pairs, later in 1, the same in 2"), mixed.evidence());
        assertTrue(mixed.evidence().contains("perception/online >512 vs 256"), mixed.evidence());
    }

    @Test
    void aClaimNeverBorneOutDoesNotHold() {
        assertEquals(AdaptationFindings.FAILS, finding(rows(Map.of()), "PAFT pre-training").verdict(), "all the same: not shorter");
        Map<String, Long> m = new java.util.HashMap<>();
        m.put("interaction/sft/offline", null);
        m.put("interaction/paft/offline", null);
        assertEquals(AdaptationFindings.FAILS, finding(rows(m), "Targeted offline").verdict(), "offline later where it differs");
        m.put("perception/sft/online", null);
        assertEquals(AdaptationFindings.MIXED, finding(rows(m), "Targeted offline").verdict());
    }

    @Test
    void forgettingIsReadOffTheRepairsThatTrained() {
        List<Row> rows = new ArrayList<>(rows(Map.of()));
        // One offline repair forgets 5 points of static: the mean over four stays within 2, one row does not.
        Row r = rows.get(0);
        rows.set(0, row(r.scenario(), r.start(), r.method(), r.recoveredAt(), 0.93, 0.60));
        Finding f = finding(rows, "Targeted adaptation with replay");
        assertEquals(AdaptationFindings.MIXED, f.verdict(), f.evidence());
        assertTrue(f.evidence().contains("worst -0.050") && f.evidence().contains("3 within 2 points"), f.evidence());
        // A repair that recovered at 0 trained nothing and is left out of the mean.
        List<Row> untrained = rows(Map.of("interaction/sft/offline", 0L, "interaction/paft/offline", 0L, "perception/sft/offline", 0L,
                "perception/paft/offline", 0L));
        assertEquals(dev.openagent.study.Findings.UNMEASURED, finding(untrained, "Targeted adaptation with replay").verdict());
        rows.set(1, row(rows.get(1).scenario(), rows.get(1).start(), rows.get(1).method(), 256L, 0.98, 0.40));
        // One repair of eight lost 20 points on the other shifts: the mean loss, 2.5 points, is past the limit.
        assertEquals(AdaptationFindings.FAILS, finding(rows, "Repairing one shift keeps").verdict());
        assertEquals(AdaptationFindings.HOLDS, finding(rows(Map.of()), "Repairing one shift keeps").verdict());
    }
}
