package dev.openagent.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.Results;
import dev.openagent.report.ReportData;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.Outcome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run's results from its episodes' summaries (no trajectories read) are the results from its whole episodes. */
class EpisodeSummariesTest {
    @TempDir
    Path dir;

    @Test
    void theResultsFromSummariesAreTheResultsFromTheWholeEpisodes() {
        try (ResultStore s = ResultStore.open(dir.resolve("s.db"))) {
            EpisodeListingTest.fill(s);
            // an attacked episode under a security shift: the attack's success is read from its own column
            for (int task = 0; task < 4; task++) {
                EpisodeResult e = Results.answered("a", "sec.injection", "security", task, task != 1);
                Trajectory t = e.trajectory();
                Outcome attacked = new Outcome(e.success(), e.outcome().end(), e.outcome().detail(), task % 2 == 0);
                Trajectory marked = new Trajectory(t.env(), t.taskId(), t.split(), t.seed(), t.difficulty(), t.kind(), t.solvable(), t.shifts(), t.agent(),
                        t.tools(), t.messages(), attacked, t.stats(), t.dbChanges());
                s.saveEpisode("r", new EpisodeResult(e.key(), e.tier(), e.taskIndex(), attacked, marked, e.gold(), e.durationMs()));
            }
            s.flush();
            RunInfo run = s.run("r").orElseThrow();
            ObjectNode whole = ReportData.build(run, s.episodes("r"), 0);
            ObjectNode summarised = ReportData.build(run, s.episodeSummaries("r"));
            whole.remove("generated_at");
            summarised.remove("generated_at");
            assertEquals(whole, summarised);
            assertTrue(whole.path("summary").path("by_shift").path("sec.injection").path("attack_success_rate").isNumber(), whole.toString());

            // a page of a listing: these episodes, in this order, with their categories
            EpisodeResult wrong = Results.answered("a", "tool.semantic-rename", "perception", 1, false);
            EpisodeResult fine = Results.answered("a", "none", "static", 0, true);
            EpisodeSummaries page = s.episodeSummaries(java.util.List.of(wrong.id(), "no-such-episode", fine.id()));
            assertEquals(java.util.List.of(wrong.id(), fine.id()), page.episodes().stream().map(EpisodeResult::id).toList());
            assertEquals(java.util.Map.of(wrong.id(), dev.openagent.metrics.Failure.WRONG_ANSWER, fine.id(), dev.openagent.metrics.Failure.SUCCESS),
                    page.failures());
            assertEquals(wrong.trajectory().stats().turns(), page.episodes().getFirst().trajectory().stats().turns());
            assertEquals(wrong.trajectory().taskId(), page.episodes().getFirst().trajectory().taskId());
        }
    }
}
