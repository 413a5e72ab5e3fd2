package dev.openagent.junit;

import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.agent.framework.FrameworkEpisodes;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.results.EpisodeKey;
import dev.openagent.results.EpisodeResult;
import dev.openagent.run.EvalRunner;
import dev.openagent.results.GoldFacts;
import dev.openagent.run.LocalRunner;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs a plan's episodes in this process (tasks outermost, then trials and conditions), at most
 * {@code concurrency} at once, and returns them in plan order whatever the scheduling. Nothing is
 * stored or reused between runs: a test always measures the code it runs.
 */
final class RobustnessRunner {
    /** The agent under test: one of the harness's agents or a framework agent. */
    sealed interface Subject {
        String name();

        /** One episode: its trajectory and the agent's own transcript. */
        FrameworkEpisodes.Run run(Env env, TaskRequest request);
    }

    record HarnessAgent(Agent agent) implements Subject {
        public String name() { return agent.name(); }

        public FrameworkEpisodes.Run run(Env env, TaskRequest request) {
            ScoredAgent scored = new ScoredAgent(agent);
            Trajectory t = Episodes.run(env, scored, request);
            return new FrameworkEpisodes.Run(t, scored.transcript());
        }
    }

    record Framework(FrameworkAgent agent) implements Subject {
        public String name() { return agent.name(); }

        public FrameworkEpisodes.Run run(Env env, TaskRequest request) { return FrameworkEpisodes.run(env, agent, request); }
    }

    /** A finished episode with the agent's transcript (empty when the agent records none). */
    record Episode(EpisodeResult result, AgentTranscript transcript) {}

    private record Planned(EvalRunner.Condition condition, int taskIndex, TaskRequest request, int trial) {}

    private RobustnessRunner() {}

    static List<Episode> run(RobustnessPlan plan, Subject subject) {
        List<Planned> planned = new ArrayList<>();
        for (int i = 0; i < plan.tasks().size(); i++) {
            for (int trial = 0; trial < plan.experiment().trials(); trial++) {
                for (EvalRunner.Condition c : plan.conditions()) planned.add(new Planned(c, i, plan.tasks().get(i), trial));
            }
        }
        int threads = Math.min(plan.experiment().concurrency(), planned.size());
        if (threads <= 1) return planned.stream().map(p -> runOne(p, subject)).toList();
        return LocalRunner.inOrder(planned, threads, p -> runOne(p, subject));
    }

    private static Episode runOne(Planned p, Subject subject) {
        EpisodeKey key = new EpisodeKey("junit", subject.name(), p.condition().env(), p.condition().label(), p.request().seed(), p.trial());
        long t0 = System.nanoTime();
        Env env = p.condition().stack().apply(p.condition().environment().create());
        try {
            FrameworkEpisodes.Run run = subject.run(env, p.request());
            EpisodeResult r = new EpisodeResult(key, p.condition().tier(), p.taskIndex(), run.trajectory().outcome(), run.trajectory(),
                    GoldFacts.of(env.task()), (System.nanoTime() - t0) / 1_000_000);
            return new Episode(r, run.transcript());
        } catch (RuntimeException e) {
            // a bug of the sandbox or the harness, not the agent's doing: kept as an unscored error, as the eval runner does
            EpisodeResult r = new EpisodeResult(key, p.condition().tier(), p.taskIndex(),
                    new Outcome(false, Outcome.End.INFRA_ERROR, "internal error: " + e), null, GoldFacts.NONE, (System.nanoTime() - t0) / 1_000_000);
            return new Episode(r, AgentTranscript.NONE);
        }
    }
}
