package dev.openagent.shift;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolError;
import dev.openagent.json.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retries obs.runtime-error and obs.malformed-output promise will get through are the shift's cost, not the
 * agent's: each failed or broken answer grants the episode one turn beyond poi's step limit of 30, and no more, so an
 * agent that repeats a look-up forever still meets the limit, exactly that many turns later. (Without the grant heavy
 * pairs of them ran difficult tasks out of turns for the oracle itself: travel obs.runtime-error:3+obs.malformed-output:3,
 * 4 of validate's 100 tasks at seed 1.)
 */
class RetryTurnsTest {
    private static final int LIMIT = 30;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void runtimeErrorsGrantATurnPerFailure(long seed) {
        int failed = loopToTheLimit("obs.runtime-error:severity=3", seed,
                o -> o.isError() && o.error().code() == ToolError.Code.TRANSIENT);
        assertTrue(failed > 0, "severity 3 fails some of 30-odd calls");
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void malformedOutputGrantsATurnPerBrokenAnswer(long seed) {
        int broken = loopToTheLimit("obs.malformed-output:severity=3", seed, o -> !o.isError() && !parses(o.text()));
        assertTrue(broken > 0, "severity 3 breaks some of 30-odd answers");
    }

    /** Repeats one look-up until the episode ends; checks it ended at the limit plus one turn per shifted answer, and returns their count. */
    private static int loopToTheLimit(String spec, long seed, Predicate<Observation> shifted) {
        Env env = ShiftMechanismsTest.shifted("poi", spec);
        env.reset(new TaskRequest(Split.TEST, seed, 1));
        int turns = 0, hits = 0;
        Step s;
        do {
            s = env.step(Action.CallTools.of("c" + turns, "search_places", "{}"));
            turns++;
            if (s.observations().stream().anyMatch(shifted)) hits++;
        } while (!s.done() && turns < 500);
        assertEquals(Outcome.End.STEP_LIMIT, s.outcome().end(), spec + " seed " + seed);
        assertEquals(LIMIT + hits, turns, spec + " seed " + seed + ": " + hits + " answers shifted");
        return hits;
    }

    private static boolean parses(String text) {
        try {
            Json.MAPPER.readTree(text);
            return true;
        } catch (Exception e) {
            return false;
        }
    }
}
