package dev.openagent.store;

import dev.openagent.UserInputException;
import dev.openagent.metrics.Failure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which of a run's episodes to list, as SQL selects them from the columns of a run's links (schema 2) or of the
 * episodes (schema 1, which does not hold the failure category: the store reads it from the trajectories). A null
 * field selects everything.
 *
 * @param outcome {@link Result}: succeeded, failed (scored and not a success) or an infrastructure error
 * @param failure the failure category ({@link Failure}, docs/evaluation.md)
 */
public record EpisodeFilter(String agent, String env, String tier, String shift, Result outcome, Failure failure) {
    /** Everything. */
    public static final EpisodeFilter ALL = new EpisodeFilter(null, null, null, null, null, null);

    /** No failure category. */
    public EpisodeFilter(String agent, String env, String tier, String shift, Result outcome) {
        this(agent, env, tier, shift, outcome, null);
    }

    /** An episode's result as a filter sees it. */
    public enum Result {
        SUCCESS("e.success = 1"),
        FAILURE("e.success = 0 AND e.end_reason NOT IN ('INFRA_ERROR', 'UNSCORED')"),
        INFRA_ERROR("e.end_reason = 'INFRA_ERROR'");

        final String sql;

        Result(String sql) {
            this.sql = sql;
        }

        public String id() { return name().toLowerCase(Locale.ROOT); }

        /** {@code success}, {@code failure} or {@code infra_error}; null or empty is no filter. */
        public static Result parse(String text) {
            if (text == null || text.isEmpty()) return null;
            for (Result r : values()) if (r.id().equals(text)) return r;
            throw new UserInputException("unknown outcome '" + text + "' (success, failure or infra_error)");
        }
    }

    /** The failure category of this id ({@code hallucinated_tool}, ...); null or empty is no filter. */
    public static Failure failure(String id) {
        if (id == null || id.isEmpty()) return null;
        for (Failure f : Failure.values()) if (f.id().equals(id)) return f;
        throw new UserInputException("unknown failure category '" + id + "'");
    }

    /** The WHERE conditions after {@code r.run_id = ?} (each starting with AND), and their parameters in order. */
    record Sql(String where, List<String> params) {}

    Sql sql() {
        StringBuilder w = new StringBuilder();
        List<String> params = new ArrayList<>();
        column(w, params, "e.agent", agent);
        column(w, params, "e.env", env);
        column(w, params, "e.tier", tier);
        column(w, params, "e.shift", shift);
        if (outcome != null) w.append(" AND ").append(outcome.sql);
        if (failure != null) column(w, params, "e.failure", failure.id());
        return new Sql(w.toString(), List.copyOf(params));
    }

    private static void column(StringBuilder w, List<String> params, String column, String value) {
        if (value == null || value.isEmpty()) return;
        w.append(" AND ").append(column).append(" = ?");
        params.add(value);
    }
}
