package dev.openagent.study;

import com.fasterxml.jackson.databind.JsonNode;
import dev.openagent.json.Json;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Trainer;
import dev.openagent.results.EpisodeResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each protocol end to end on a tiny budget: the shape of what {@code --json} prints and the reports written. */
class EnvStudiesTest {
    @TempDir
    Path dir;

    private static final List<String> TWO = List.of("poi", "medical");

    static CrossEnvStudy.Settings tiny() {
        return CrossEnvStudy.Settings.quick(CrossEnvStudy.Kind.TRANSFER, Trainer.Method.SFT, 3).withSteps(2).withTasks(3, 1).withConfig(PolicyConfig.tiny(), 8, 2);
    }

    private static Set<String> keys(JsonNode o) {
        Set<String> out = new HashSet<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The JSON as the command prints it, after writing the reports as the command does. */
    private JsonNode written(CrossEnvStudy.Result r, List<EpisodeResult> episodes) throws Exception {
        EnvStudyReport.writeHtml(r, dir.resolve("study.html"));
        EnvStudyReport.writeEvaluationReport(r, episodes, dir);
        String html = Files.readString(dir.resolve("study.html"));
        assertTrue(html.contains(r.kind().protocol().substring(0, 40)), "the page states the protocol");
        assertTrue(html.contains("echarts.init(document.getElementById('heatmap'))"), "the page draws the heatmap");
        assertTrue(Files.size(dir.resolve("report.html")) > 0);
        assertTrue(EnvStudyReport.markdown(r).contains("| " + r.grid().rows()));
        return Json.MAPPER.readTree(Json.write(EnvStudies.json(r)));
    }

    @Test
    void transferGivesAFullMatrixOverTheSupportedEnvironmentsAndNamesTheExcludedOnes() throws Exception {
        List<EpisodeResult> episodes = new ArrayList<>();
        List<String> asked = List.of("poi", "medical", "household");
        CrossEnvStudy.Result r = EnvStudies.transfer(asked, tiny(), dir, StudyProgress.none(), episodes::addAll);
        JsonNode j = written(r, episodes);
        Set<String> envs = new HashSet<>();
        j.path("envs").forEach(e -> envs.add(e.asText()));
        Set<String> excluded = new HashSet<>();
        j.path("excluded").forEach(e -> {
            excluded.add(e.path("env").asText());
            assertFalse(e.path("reason").asText().isBlank());
        });
        assertTrue(envs.containsAll(TWO));
        assertEquals(new HashSet<>(asked), union(envs, excluded), "every asked environment is either studied or excluded with a reason");
        assertEquals(envs, keys(j.path("matrix")));
        for (String train : envs) {
            assertEquals(envs, keys(j.path("matrix").path(train)), "row " + train);
            j.path("matrix").path(train).forEach(v -> assertTrue(v.isNumber() && v.asDouble() >= 0 && v.asDouble() <= 1));
        }
        assertEquals(envs, keys(j.path("untrained")));
        assertTrue(j.path("held_in_gain").isNumber() && j.path("held_out_gain").isNumber());
        assertEquals((envs.size() + 1) * envs.size(), j.path("rows").size(), "untrained and every trained policy on every environment");
        for (JsonNode row : j.path("rows")) {
            assertFalse(excluded.contains(row.path("env").asText()), "no row for an excluded environment");
            assertEquals(3, row.path("episodes").asInt());
            assertTrue(row.path("ci_low").asDouble() <= row.path("success_rate").asDouble());
            assertTrue(row.path("success_rate").asDouble() <= row.path("ci_high").asDouble());
            assertTrue(row.path("turns").asDouble() >= 1 && row.path("tokens").asDouble() > 0);
            int counted = 0;
            for (JsonNode n : row.path("failures")) counted += n.asInt();
            assertEquals(3, counted, "the failure taxonomy classifies every episode");
        }
        assertEquals(3 * j.path("rows").size(), episodes.size());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.addAll(b);
        return out;
    }

    @Test
    void sequentialEvaluatesEveryEnvironmentAfterEveryStage() throws Exception {
        List<EpisodeResult> episodes = new ArrayList<>();
        CrossEnvStudy.Result r = EnvStudies.sequential(TWO, tiny().withTasks(2, 2), dir, StudyProgress.none(), episodes::addAll);
        JsonNode j = written(r, episodes);
        assertEquals(3 * 2, j.path("rows").size(), "untrained, then one row per environment after each of 2 stages");
        assertEquals(2, j.path("stages").size());
        for (JsonNode s : j.path("stages")) assertEquals(Set.copyOf(TWO), keys(s.path("success")));
        assertEquals(Set.of("poi"), keys(j.path("forgetting")));
        assertEquals(Set.of("medical"), keys(j.path("forward_transfer")));
        assertEquals(4, j.path("rows").get(0).path("episodes").asInt(), "2 tasks x k=2 trials");
        assertEquals(2, j.path("rows").get(0).path("k").asInt());
        assertTrue(r.training().get("stage-2-medical").path("vocabulary_added").asInt() > 0,
                "stage 2 continues from stage 1 and learns medical's words");
    }

    @Test
    void mixtureStandsBesideSequentialAndSingleEnvironmentTraining() throws Exception {
        List<EpisodeResult> episodes = new ArrayList<>();
        CrossEnvStudy.Result r = EnvStudies.mixture(TWO, tiny(), dir, StudyProgress.none(), episodes::addAll);
        JsonNode j = written(r, episodes);
        Set<String> policies = new HashSet<>();
        j.path("rows").forEach(x -> policies.add(x.path("policy").asText()));
        assertEquals(Set.of("untrained", "single:poi", "single:medical", "mixture", "sequential"), policies);
        assertTrue(j.path("strategies").has("mixture") && j.path("strategies").has("sequential"));
        for (JsonNode s : j.path("strategies")) assertEquals(Set.of("poi", "medical", "mean", "min"), keys(s));
        assertEquals(4, r.training().get("mixture").path("steps").asInt(), "the mixture trains as long as both single runs");
        assertEquals(2, r.training().get("mixture").path("envs").size());
        assertFalse(r.training().containsKey("sequential-1-poi"), "sequential stage 1 is the single poi run, not trained twice");
        assertTrue(r.training().get("sequential-2-medical").path("init").asText().endsWith("single-poi"));
        assertTrue(r.training().get("mixture").path("phases").has("optimiser"), "training records its time by phase");
    }

    @Test
    void difficultyComparesEasyOnlyHardOnlyMixedAndCurriculumOnEasyAndHardTasks() throws Exception {
        List<EpisodeResult> episodes = new ArrayList<>();
        CrossEnvStudy.Result r = EnvStudies.difficulty("poi", tiny(), dir, StudyProgress.none(), episodes::addAll);
        JsonNode j = written(r, episodes);
        assertEquals(Set.of("untrained", "easy-only", "hard-only", "mixed", "curriculum"), keys(j.path("table")));
        for (JsonNode p : j.path("table")) assertEquals(Set.of("easy", "hard"), keys(p));
        assertTrue(j.path("easy_to_hard_gain").isNumber());
        assertEquals(List.of(1, 2), List.of(r.training().get("easy-only").path("difficulty").get(0).asInt(),
                r.training().get("easy-only").path("difficulty").get(1).asInt()));
        for (EpisodeResult e : episodes) {
            int d = e.trajectory().difficulty();
            assertTrue(d >= 1 && d <= 4);
        }
    }

    @Test
    void badInputGetsAClearError() {
        assertThrows(IllegalArgumentException.class, () -> EnvStudies.transfer(List.of("poi"), tiny(), dir, StudyProgress.none(), e -> {}));
        assertThrows(IllegalArgumentException.class, () -> EnvStudies.sequential(List.of("poi", "poi"), tiny(), dir, StudyProgress.none(), e -> {}));
        assertThrows(IllegalArgumentException.class, () -> EnvStudies.transfer(List.of("poi", "nowhere"), tiny(), dir, StudyProgress.none(), e -> {}));
    }
}
