package dev.openagent.frontier;

import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.results.GoldFacts;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

class FrontierProgressTest {
    static EpisodeResult episode(int task, Outcome.End end) {
        return new EpisodeResult(new EpisodeKey("h", "a", "poi", "none", task, 0), "static", task, new Outcome(end == Outcome.End.ANSWERED, end, null),
                null, GoldFacts.NONE, 1);
    }

    /** Plain lines (CI, no terminal): episodes used of the budget, shifts settled, errors, and an ETA with its bound. */
    @Test
    void plainLinesShowTheBudgetTheShiftsSettledAndAnEta() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        FrontierProgress p = FrontierProgress.lines(new PrintStream(bytes, true, StandardCharsets.UTF_8), Duration.ZERO, 900);
        for (int i = 0; i < 20; i++) p.finished(episode(i, i == 3 ? Outcome.End.INFRA_ERROR : Outcome.End.ANSWERED));
        p.round(20, 1, 4, 60, 300);
        p.finished(episode(21, Outcome.End.ANSWERED));
        p.done();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("frontier: 20 episodes used (budget 900), 20 run now"), out);
        assertTrue(out.contains("1 of 4 shifts settled, 1 infra errors, ETA ~"), out);
        assertTrue(out.contains("(at most "), out);
        assertTrue(out.strip().lines().reduce((a, b) -> b).orElseThrow().startsWith("frontier: 21 episodes used"), "an episode of the next round counts: " + out);
    }
}
