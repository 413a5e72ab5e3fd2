package dev.openagent.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/** Runs' learning curves in the results store (table {@code curve_points}). */
record Curves(StoreWriter writer, StoreReader reader) {
    static final String TABLE = "curve_points";
    /** A point given again (a rerun of the same run) replaces the stored one. */
    private static final String PUT = """
            INSERT INTO curve_points(run_id, series, metric, x, value, lo, hi) VALUES (?,?,?,?,?,?,?)
            ON CONFLICT(run_id, series, metric, x) DO UPDATE SET value=excluded.value, lo=excluded.lo, hi=excluded.hi""";

    /** Queues the point; returns at once. */
    void put(String runId, CurvePoint p) {
        writer.update(PUT, false, s -> {
            s.setString(1, runId);
            s.setString(2, p.series());
            s.setString(3, p.metric());
            s.setLong(4, p.x());
            s.setDouble(5, p.value());
            setDouble(s, 6, p.lo());
            setDouble(s, 7, p.hi());
        });
    }

    /** The run's points by series, then metric, then x; none in a store without the table (a store opened read-only that no newer openagent wrote). */
    List<CurvePoint> of(String runId) {
        if (!reader.hasTable(TABLE)) return List.of();
        return reader.read(c -> {
            List<CurvePoint> out = new ArrayList<>();
            PreparedStatement p = reader.prepared("SELECT series, x, metric, value, lo, hi FROM curve_points WHERE run_id = ? ORDER BY series, metric, x");
            p.setString(1, runId);
            try (ResultSet rs = p.executeQuery()) {
                while (rs.next()) out.add(new CurvePoint(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getDouble(4), getDouble(rs, 5), getDouble(rs, 6)));
            }
            return out;
        });
    }

    static void setDouble(PreparedStatement s, int i, Double v) throws java.sql.SQLException {
        if (v == null) s.setNull(i, Types.DOUBLE);
        else s.setDouble(i, v);
    }

    static Double getDouble(ResultSet rs, int i) throws java.sql.SQLException {
        double v = rs.getDouble(i);
        return rs.wasNull() ? null : v;
    }
}
