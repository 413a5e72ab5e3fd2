package dev.openagent.run;

import dev.openagent.results.EpisodeResult;
import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.agent.openai.RetryPolicy;
import dev.openagent.agent.openai.ToolProtocol;
import dev.openagent.fake.ScriptedModel;
import dev.openagent.metrics.Scorecard;
import dev.openagent.sandbox.Split;
import dev.openagent.store.ResultStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runner against the scripted model: resume, reuse, cache, infrastructure errors, concurrency. */
@Timeout(120)
class EvalRunnerTest {
    static final int TASKS = 24;

    @TempDir
    Path dir;

    static Experiment experiment(int concurrency, long maxRequests) {
        return new Experiment("t", List.of(AgentSpec.of("openai")), List.of("poi"), List.of("none"), TASKS, 2, 3L, "test", 0,
                concurrency, new Experiment.Budget(maxRequests, null));
    }

    static ScriptedModel model(double failureRate) throws IOException {
        return new ScriptedModel(List.of("poi"), "none", new TaskPlan(Split.TEST, TASKS, 3L, 0), failureRate, false);
    }

    /** One run of the experiment into a store; returns the run result. */
    static EvalRunner.RunResult run(Path store, ScriptedModel model, Experiment exp, int retries, ToolProtocol protocol) {
        RunControl control = new RunControl(exp.budget().requests(), exp.budget().tokens());
        try (ResultStore results = ResultStore.open(store)) {
            OpenAiConfig config = new OpenAiConfig(java.net.URI.create(model.baseUrl()), "scripted", null, protocol, null, null, null, null, null,
                    new RetryPolicy(retries, Duration.ofMillis(1), Duration.ofMillis(2)), null);
            try (ChatEndpoint endpoint = new ChatEndpoint(config, results, true, control, ChatEndpoint.Sleeper.REAL)) {
                OpenAiAgent agent = new OpenAiAgent(endpoint);
                EvalAgent a = new EvalAgent(config.label(), config.identity(), agent::forTrial);
                return new EvalRunner(new Catalog(), results, control, Progress.NONE).run(exp, List.of(a));
            }
        }
    }

    /** Runs the experiment into a fresh store of this name in the test's directory; the store's path. */
    Path runInto(String name, ScriptedModel model, Experiment experiment, ToolProtocol protocol) {
        Path store = dir.resolve(name);
        run(store, model, experiment, 0, protocol);
        return store;
    }

    /** The scorecard of the store's first run. */
    static ObjectNode summary(Path store) {
        return summary(store, firstRun(store));
    }

    /** The outcomes of the store's first run. */
    static Map<String, String> outcomes(Path store) {
        return outcomes(store, firstRun(store));
    }

    static ObjectNode summary(Path store, String runId) {
        try (ResultStore results = ResultStore.open(store)) {
            return new Scorecard(results.episodes(runId)).toJson();
        }
    }

    static Map<String, String> outcomes(Path store, String runId) {
        try (ResultStore results = ResultStore.open(store)) {
            return results.episodes(runId).stream().collect(Collectors.toMap(EpisodeResult::id,
                    e -> e.outcome().toString() + e.stats() + (e.trajectory() == null ? "" : e.trajectory().messages().toString())));
        }
    }

    @Test
    void anInterruptedRunResumedGivesTheSameNumbersAsAnUninterruptedOne() throws IOException {
        Path whole = dir.resolve("whole.db");
        Path pieces = dir.resolve("pieces.db");
        long uninterruptedRequests;
        try (ScriptedModel m = model(0)) {
            EvalRunner.RunResult r = run(whole, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
            assertTrue(r.complete(), r.toString());
            assertEquals(TASKS * 2, r.planned());
            uninterruptedRequests = m.requests();
        }
        try (ScriptedModel m = model(0)) {
            // A budget cuts the run off midway: episodes in flight end as infrastructure errors.
            EvalRunner.RunResult cut = run(pieces, m, experiment(8, uninterruptedRequests / 3), 0, ToolProtocol.NATIVE);
            assertFalse(cut.complete());
            assertNotNull(cut.stopReason());
            assertTrue(cut.ran() < cut.planned(), cut.toString());
            EvalRunner.RunResult resumed = run(pieces, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
            assertTrue(resumed.complete(), resumed.toString());
            assertEquals(cut.runId(), resumed.runId(), "the same experiment is the same run, whatever its budget");
            assertEquals(cut.ran() - cut.errors(), resumed.reused(), "finished episodes are reused, errors run again");
            // Cached replies: no request of the interrupted part is sent twice.
            assertEquals(uninterruptedRequests, m.requests());
        }
        assertEquals(summary(whole), summary(pieces));
        assertEquals(outcomes(whole), outcomes(pieces));
    }

    static String firstRun(Path store) {
        try (ResultStore results = ResultStore.open(store)) {
            return results.runs().getFirst().id();
        }
    }

    @Test
    void rerunningAFinishedExperimentReusesEveryEpisode() throws IOException {
        Path store = dir.resolve("s.db");
        try (ScriptedModel m = model(0)) {
            EvalRunner.RunResult first = run(store, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
            long requests = m.requests();
            EvalRunner.RunResult again = run(store, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
            assertEquals(first.planned(), again.reused());
            assertEquals(0, again.ran());
            assertEquals(requests, m.requests(), "nothing is asked again");
            assertTrue(again.complete());
        }
    }

    /** The summary of the experiment run once against a healthy endpoint. */
    ObjectNode cleanSummary() throws IOException {
        Path clean = dir.resolve("clean.db");
        try (ScriptedModel m = model(0)) {
            run(clean, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
        }
        return summary(clean);
    }

    @Test
    void infrastructureErrorsAreRecordedAsSuchAndRunAgainOnResume() throws IOException {
        Path flaky = dir.resolve("flaky.db");
        EvalRunner.RunResult first;
        try (ScriptedModel m = model(0.08)) {
            // No retries: every dropped connection or 500 ends its episode as an infrastructure error.
            first = run(flaky, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
        }
        assertTrue(first.errors() > 0, "the flaky endpoint caused errors: " + first);
        assertFalse(first.complete());
        ObjectNode partial = summary(flaky, first.runId());
        assertEquals(first.errors(), partial.path("errors").asInt());
        assertEquals(first.errors(), partial.path("failures").path("infra_error").asInt());
        assertEquals(partial.path("episodes").asInt() - first.errors(), partial.path("scored").asInt(), "errors are not scored");
        EvalRunner.RunResult resumed;
        try (ScriptedModel m = model(0)) {
            resumed = run(flaky, m, experiment(8, 0), 0, ToolProtocol.NATIVE);
        }
        assertEquals(first.errors(), resumed.ran(), "exactly the errored episodes run again");
        assertTrue(resumed.complete());
        assertEquals(cleanSummary(), summary(flaky, first.runId()));
    }

    @Test
    void retriesAbsorbAFlakyEndpoint() throws IOException {
        Path flaky = dir.resolve("flaky.db");
        try (ScriptedModel m = model(0.1)) {
            EvalRunner.RunResult r = run(flaky, m, experiment(8, 0), 6, ToolProtocol.NATIVE);
            assertTrue(r.complete(), r.toString());
        }
        assertEquals(cleanSummary(), summary(flaky));
    }

    @Test
    void resultsDoNotDependOnConcurrency() throws IOException {
        Map<String, String> one;
        Map<String, String> many;
        try (ScriptedModel m = model(0)) {
            one = outcomes(runInto("one.db", m, experiment(1, 0), ToolProtocol.NATIVE));
            many = outcomes(runInto("many.db", m, experiment(48, 0), ToolProtocol.NATIVE));
        }
        assertEquals(one, many);
    }

    @Test
    void theScriptedModelsMistakesLandInTheirTaxonomyCategoriesUnderBothProtocols() throws IOException {
        ObjectNode a;
        ObjectNode b;
        try (ScriptedModel m = model(0)) {
            a = summary(runInto("native.db", m, experiment(8, 0), ToolProtocol.NATIVE));
            b = summary(runInto("text.db", m, experiment(8, 0), ToolProtocol.TEXT));
        }
        assertTrue(a.path("failures").size() >= 4, "success and several kinds of failure: " + a.path("failures"));
        assertTrue(a.path("tool_errors").asInt() > 0, "recovered mistakes still count as tool errors");
        assertTrue(a.path("success_rate").asDouble() > 0.3 && a.path("success_rate").asDouble() < 0.9, a.toString());
        assertEquals(a.path("failures"), b.path("failures"), "the text protocol carries the same moves");
        assertEquals(a.path("success_rate"), b.path("success_rate"));
    }

    @Test
    void theExperimentIdentityIgnoresHowItIsRun() {
        EvalAgent a = new EvalAgent("x", Map.of("kind", "x"), t -> null);
        Experiment slow = experiment(1, 10);
        Experiment fast = experiment(64, 0);
        assertEquals(EvalRunner.runId(slow, List.of(a)), EvalRunner.runId(fast, List.of(a)));
        Experiment other = new Experiment("t", slow.agents(), slow.envs(), slow.shifts(), TASKS + 1, 2, 3L, "test", 0, 1, null);
        assertFalse(EvalRunner.runId(slow, List.of(a)).equals(EvalRunner.runId(other, List.of(a))));
        EvalAgent b = new EvalAgent("x", Map.of("kind", "x", "temperature", 0.5), t -> null);
        assertFalse(EvalRunner.configHash(a, slow).equals(EvalRunner.configHash(b, slow)), "agent settings change episode identity");
        List<String> notApplicable = new ArrayList<>();
        assertEquals(1, EvalRunner.conditions(new Catalog(), slow, notApplicable).size(), "the static condition is always there");
    }
}
