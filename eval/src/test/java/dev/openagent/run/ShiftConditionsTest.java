package dev.openagent.run;

import dev.openagent.results.EpisodeResult;
import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.metrics.Scorecard;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvWrapper;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.ShiftRecord;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftParam;
import dev.openagent.shift.ShiftStack;
import dev.openagent.shift.Tier;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shift conditions flow through the runner, the store and the metrics: labels, tiers (a stack
 * spanning tiers is "mixed"), shifts that do not apply, and Δ against static. The catalog is filled
 * by the shift engine; these test shifts stand in for it.
 */
class ShiftConditionsTest {
    @TempDir
    Path dir;

    /** A shift that rewrites the query's case; harmless to the oracle, so Δ must be 0. */
    static Shift caseShift(String id, Tier tier, boolean applies) {
        return new Shift(id, tier, Dimension.Q, "changes the case of the query",
                List.of(new ShiftParam("severity", "how much", "1", List.of("1", "2", "3"))),
                env -> applies ? Optional.empty() : Optional.of("not for " + env.id()),
                (inner, params) -> new EnvWrapper(inner) {
                    @Override
                    protected ShiftRecord record() { return new ShiftRecord(id, params, 0); }

                    @Override
                    public Start reset(TaskRequest request) {
                        Start s = inner.reset(request);
                        return s.withQuery(tier == Tier.PERCEPTION ? s.query().toUpperCase(Locale.ROOT) : s.query().toLowerCase(Locale.ROOT));
                    }
                });
    }

    static final Shift UPPER = caseShift("test.upper", Tier.PERCEPTION, true);
    static final Shift LOWER = caseShift("test.lower", Tier.REASONING, true);
    static final Shift NEVER = caseShift("test.never", Tier.INTERACTION, false);

    static List<ShiftStack> expand(String spec) {
        assertEquals("all", spec);
        return List.of(
                new ShiftStack(List.of(new ShiftStack.Layer(UPPER, Map.of("severity", "1")))),
                new ShiftStack(List.of(new ShiftStack.Layer(UPPER, Map.of("severity", "3")))),
                new ShiftStack(List.of(new ShiftStack.Layer(UPPER, Map.of("severity", "1")), new ShiftStack.Layer(LOWER, Map.of("severity", "1")))),
                new ShiftStack(List.of(new ShiftStack.Layer(NEVER, Map.of("severity", "1")))),
                ShiftStack.NONE);
    }

    @Test
    void labelsTiersAndDeltasOfShiftConditions() {
        Experiment exp = new Experiment("shifts", List.of(AgentSpec.of("oracle")), List.of("poi"), List.of("all"), 10, 1, 5L, "test", 0, 4, null);
        EvalAgent oracle = new EvalAgent("oracle", Map.of("kind", "oracle"), t -> new OracleAgent());
        try (ResultStore store = ResultStore.open(dir.resolve("s.db"))) {
            EvalRunner.RunResult r = new EvalRunner(new Catalog(), store, RunControl.unlimited(), Progress.NONE, ShiftConditionsTest::expand)
                    .run(exp, List.of(oracle));
            assertTrue(r.complete(), r.toString());
            assertEquals(40, r.planned(), "static + 3 applicable conditions (static listed twice counts once) x 10 tasks");
            assertEquals(List.of("poi / test.never: test.never: not for poi"), r.notApplicable());
            JsonNode s = new Scorecard(store.episodes(r.runId())).toJson();
            List<String> labels = new ArrayList<>();
            s.path("by_shift").fieldNames().forEachRemaining(labels::add);
            assertEquals(List.of("none", "test.upper", "test.upper:severity=3", "test.upper+test.lower"), labels);
            assertEquals("perception", s.path("by_shift").path("test.upper:severity=3").path("tier").asText());
            assertEquals("mixed", s.path("by_shift").path("test.upper+test.lower").path("tier").asText());
            assertEquals(List.of("static", "perception", "mixed"), names(s.path("by_tier")));
            JsonNode d = s.path("by_shift").path("test.upper").path("delta");
            assertEquals(10, d.path("pairs").asInt());
            assertEquals(0.0, d.path("absolute").asDouble());
            assertEquals(1.0, d.path("p_value").asDouble());
            // The trajectory records the shift stack it ran under.
            EpisodeResult composed = store.episodes(r.runId()).stream().filter(e -> e.shift().equals("test.upper+test.lower")).findFirst().orElseThrow();
            assertEquals(List.of("test.upper", "test.lower"), composed.trajectory().shifts().stream().map(ShiftRecord::id).toList());
        }
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
