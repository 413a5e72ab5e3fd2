package dev.openagent.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Frontier searches' verdicts in the results store (tables {@code frontier_shifts} and {@code frontier_tests}). */
record Verdicts(StoreWriter writer, StoreReader reader) {
    static final String SHIFTS = "frontier_shifts";
    static final String TESTS = "frontier_tests";
    private static final String PUT_SHIFT = """
            INSERT INTO frontier_shifts(run_id, seq, env, shift, tier, status, breaking_severity, severities) VALUES (?,?,?,?,?,?,?,?)""";
    private static final String PUT_TEST = """
            INSERT INTO frontier_tests(run_id, seq, env, shift, label, severity, verdict, decided, episodes, shifted_successes,
              static_successes, drop_estimate, drop_low, drop_high) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)""";

    /** Replaces the run's verdicts with these, in one transaction; returns once committed. */
    void save(String runId, FrontierVerdicts v) {
        writer.submit(s -> {
            s.update("DELETE FROM frontier_shifts WHERE run_id = ?", p -> p.setString(1, runId));
            s.update("DELETE FROM frontier_tests WHERE run_id = ?", p -> p.setString(1, runId));
            PreparedStatement shifts = s.prepare(PUT_SHIFT);
            // the statements are kept between transactions: one that failed mid-batch (and is applied again) leaves nothing
            shifts.clearBatch();
            int seq = 0;
            for (FrontierVerdicts.Shift x : v.shifts()) {
                shifts.setString(1, runId);
                shifts.setInt(2, seq++);
                shifts.setString(3, x.env());
                shifts.setString(4, x.shift());
                shifts.setString(5, x.tier());
                shifts.setString(6, x.status());
                if (x.breakingSeverity() == null) shifts.setNull(7, Types.INTEGER);
                else shifts.setInt(7, x.breakingSeverity());
                shifts.setString(8, String.join(",", x.severities().stream().map(String::valueOf).toList()));
                shifts.addBatch();
            }
            if (seq > 0) shifts.executeBatch();
            PreparedStatement tests = s.prepare(PUT_TEST);
            tests.clearBatch();
            seq = 0;
            for (FrontierVerdicts.Test t : v.tests()) {
                tests.setString(1, runId);
                tests.setInt(2, seq++);
                tests.setString(3, t.env());
                tests.setString(4, t.shift());
                tests.setString(5, t.condition());
                tests.setInt(6, t.severity());
                tests.setString(7, t.verdict());
                tests.setInt(8, t.decided() ? 1 : 0);
                tests.setInt(9, t.episodes());
                tests.setInt(10, t.shiftedSuccesses());
                tests.setInt(11, t.staticSuccesses());
                tests.setDouble(12, t.drop());
                tests.setDouble(13, t.low());
                tests.setDouble(14, t.high());
                tests.addBatch();
            }
            if (seq > 0) tests.executeBatch();
        }, true);
    }

    /** The run's verdicts, or empty when none were stored (not a frontier, one still searching, or a store without the tables). */
    Optional<FrontierVerdicts> of(String runId) {
        if (!reader.hasTable(SHIFTS) || !reader.hasTable(TESTS)) return Optional.empty();
        return reader.read(c -> {
            List<FrontierVerdicts.Shift> shifts = new ArrayList<>();
            PreparedStatement p = reader.prepared("SELECT env, shift, tier, status, breaking_severity, severities FROM frontier_shifts WHERE run_id = ? ORDER BY seq");
            p.setString(1, runId);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) {
                    int breaking = rs.getInt(5);
                    Integer b = rs.wasNull() ? null : breaking;
                    String sev = rs.getString(6);
                    List<Integer> severities = sev == null || sev.isEmpty() ? List.of() : Arrays.stream(sev.split(",")).map(Integer::valueOf).toList();
                    shifts.add(new FrontierVerdicts.Shift(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), b, severities));
                }
            }
            List<FrontierVerdicts.Test> tests = new ArrayList<>();
            PreparedStatement q = reader.prepared("""
                    SELECT env, shift, label, severity, verdict, decided, episodes, shifted_successes, static_successes, drop_estimate, drop_low, drop_high
                    FROM frontier_tests WHERE run_id = ? ORDER BY seq""");
            q.setString(1, runId);
            try (ResultSet rs = q.executeQuery()) {
                while (rs.next()) {
                    tests.add(new FrontierVerdicts.Test(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5), rs.getInt(6) == 1,
                            rs.getInt(7), rs.getInt(8), rs.getInt(9), rs.getDouble(10), rs.getDouble(11), rs.getDouble(12)));
                }
            }
            return shifts.isEmpty() && tests.isEmpty() ? Optional.<FrontierVerdicts>empty() : Optional.of(new FrontierVerdicts(shifts, tests));
        });
    }
}
