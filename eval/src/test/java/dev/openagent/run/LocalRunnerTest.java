package dev.openagent.run;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.episode.Trajectory;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.EnvSpec;
import dev.openagent.sandbox.EnvironmentInfo;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LocalRunner (validate, run, export) retries an environment's infrastructure failure as eval does. */
class LocalRunnerTest {
    static final List<TaskRequest> REQUESTS = List.of(new TaskRequest(Split.TEST, 11, 0), new TaskRequest(Split.TEST, 12, 0),
            new TaskRequest(Split.TEST, 13, 0), new TaskRequest(Split.TEST, 14, 0));

    /** A real environment whose first {@code failures} resets or steps (over all instances) fail as a crashed MCP server does. */
    record Flaky(Env inner, AtomicInteger failures, AtomicInteger calls) implements Env {
        static Supplier<Env> of(int failures, AtomicInteger calls) {
            AtomicInteger left = new AtomicInteger(failures);
            return () -> new Flaky(Environments.get("poi").create(), left, calls);
        }

        private void maybeFail(String what) {
            calls.incrementAndGet();
            if (failures.getAndDecrement() > 0) throw new InfrastructureException("server died on " + what);
        }

        @Override public EnvSpec spec() { return inner.spec(); }
        @Override public EnvironmentInfo info() { return inner.info(); }
        @Override public Start reset(TaskRequest request) { maybeFail("reset"); return inner.reset(request); }
        @Override public Step step(Action action) { maybeFail("step"); return inner.step(action); }
        @Override public Task task() { return inner.task(); }
        @Override public Guide guide() { return inner.guide(); }
        @Override public long episodeSeed() { return inner.episodeSeed(); }
        @Override public EnvFacts facts() { return inner.facts(); }
    }

    @Test
    void anEpisodeWhoseEnvironmentFailsTwiceIsRunAgainAndSucceeds() {
        for (int threads : new int[]{1, 2}) {
            List<Trajectory> ts = LocalRunner.run(Flaky.of(2, new AtomicInteger()), new OracleAgent(), REQUESTS, threads);
            assertEquals(REQUESTS.size(), ts.size());
            for (int i = 0; i < ts.size(); i++) {
                assertEquals(REQUESTS.get(i).seed(), ts.get(i).seed());
                assertTrue(ts.get(i).outcome().success(), threads + " threads, episode " + i + ": " + ts.get(i).outcome());
            }
        }
    }

    @Test
    void anEnvironmentThatKeepsFailingStopsAfterThreeAttempts() {
        AtomicInteger calls = new AtomicInteger();
        InfrastructureException e = assertThrows(InfrastructureException.class,
                () -> LocalRunner.run(Flaky.of(Integer.MAX_VALUE, calls), new OracleAgent(), REQUESTS.subList(0, 1), 1));
        assertEquals("environment failed 3 times: server died on reset", e.getMessage());
        assertEquals(3, calls.get());
    }
}
