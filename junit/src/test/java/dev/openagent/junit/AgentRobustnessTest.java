package dev.openagent.junit;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.agent.framework.FrameworkEpisode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Message;
import dev.openagent.episode.Usage;
import dev.openagent.metrics.Failure;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;

import java.nio.file.Files;
import java.util.List;

import static dev.openagent.junit.RobustnessAssert.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The extension and the assertions, through fixture test classes run with the JUnit Platform's test kit. */
class AgentRobustnessTest {

    // --- an agent that copes ---

    static class OracleUnderPerception {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        static RobustnessResult seen;

        @AgentRobustness(env = "poi", shift = "tier:perception", tasks = 6, seed = 3)
        void robust(RobustnessResult result) {
            seen = result;
            assertThat(result).successAtLeast(1.0).successLowerBoundAtLeast(0.5).onTier("perception").dropAtMost(0.0)
                    .onShift("tool.semantic-rename").falseRefusalsAtMost(0.0).failuresAtMost("agent_error", 0.0);
        }
    }

    @Test
    void anAgentThatCopesPassesAndTheReportLandsUnderTarget() throws Exception {
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, Fixtures.run(OracleUnderPerception.class).getStatus());
        RobustnessResult r = OracleUnderPerception.seen;
        assertEquals("none", r.shifts().getFirst());
        assertTrue(r.shifts().contains("tool.semantic-rename"));
        assertEquals(6 * r.shifts().size(), r.episodes().size());
        assertTrue(r.report().toString().replace('\\', '/').endsWith("target/openagent/OracleUnderPerception/robust/report.html"), r.report().toString());
        String html = Files.readString(r.report());
        assertTrue(html.contains("tool.semantic-rename"));
        assertEquals(r.episodes().size(), Files.readAllLines(r.reportDir().resolve("trajectories.jsonl")).size());
        assertTrue(r.table().contains("tool.semantic-rename") && r.table().contains("report: "), r.table());
    }

    // --- a brittle agent ---

    static class BrittleUnderRename {
        @AgentUnderTest
        static Agent brittle() { return Fixtures.brittleOracle(); }

        @AgentRobustness(env = "poi", shift = "tool.semantic-rename", tasks = 8, seed = 1)
        void robust(RobustnessResult result) {
            assertThat(result).onShift("none").successAtLeast(0.9);
            assertThat(result).successAtLeast(0.8);
        }
    }

    @Test
    void aBrittleAgentFailsNamingTheWorstShiftWithAnExampleTranscript() {
        String m = Fixtures.failure(BrittleUnderRename.class);
        assertTrue(m.startsWith("agent 'brittle' on poi (8 tasks, seed 1): success below 0.80 on 1 of 2 condition(s)"), m);
        assertTrue(m.contains("\n  tool.semantic-rename: success 0.000 [0.000, 0.324] over 8 scored episodes, -100.0 points vs none"), m);
        assertTrue(m.contains("worst shifts: tool.semantic-rename 0.000, none 1.000"), m);
        assertTrue(m.contains("example failing episode (tool.semantic-rename, task "), m);
        assertTrue(m.contains("[assistant] I could not find it."), m);
        assertTrue(m.contains("report: ") && m.endsWith("BrittleUnderRename/robust/report.html"), m);
    }

    // --- bad agents are scored, not crashes of the run ---

    static class ThrowingFrameworkAgent {
        @AgentUnderTest
        static FrameworkAgent thrower = Fixtures.frameworkAgent("thrower", e -> {
            e.beforeModelCall();
            e.modelReplied(List.of(Message.system("be brief"), Message.user(e.query())), e.tools().stream().map(ToolSpec::name).toList(),
                    Message.assistant("thinking"), new Usage(3, 1, 1));
            throw new IllegalStateException("the agent's parser broke");
        });

        static RobustnessResult seen;

        @AgentRobustness(env = "poi", shift = "tool.distractors", tasks = 4)
        void robust(RobustnessResult result) {
            seen = result;
            assertThat(result).failuresAtMost("agent_error", 0.0);
        }
    }

    @Test
    void anAgentThatThrowsIsScoredAsAnAgentErrorAndItsTranscriptShown() {
        String m = Fixtures.failure(ThrowingFrameworkAgent.class);
        RobustnessResult r = ThrowingFrameworkAgent.seen;
        assertEquals(8, r.episodes().size());
        assertTrue(r.episodes().stream().allMatch(e -> !e.infraError() && r.failure(e) == Failure.AGENT_ERROR));
        assertTrue(m.contains("more than 0.00 of episodes agent_error on 2 of 2 condition(s)"), m);
        assertTrue(m.contains("the agent's own transcript (what its framework sent and received):\n"), m);
        assertTrue(m.contains("[system]\n  be brief"), m);
        assertTrue(m.contains("[agent threw] java.lang.IllegalStateException: the agent's parser broke"), m);
    }

    static class ThrowingHarnessAgent {
        @AgentUnderTest
        Agent agent = new Agent() {
            public String name() { return "broken"; }

            public dev.openagent.episode.AgentSession begin(dev.openagent.sandbox.Start start, dev.openagent.sandbox.Env env) {
                return last -> { throw new NullPointerException("oops"); };
            }
        };

        static RobustnessResult seen;

        @AgentRobustness(env = "household", tasks = 3)
        void robust(RobustnessResult result) { seen = result; }
    }

    @Test
    void aHarnessAgentThatThrowsIsScoredToo() {
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, Fixtures.run(ThrowingHarnessAgent.class).getStatus());
        RobustnessResult r = ThrowingHarnessAgent.seen;
        assertEquals(3, r.episodes().size());
        assertTrue(r.episodes().stream().allMatch(e -> r.failure(e) == Failure.AGENT_ERROR));
        assertTrue(r.transcript(r.episodes().getFirst()).error().contains("NullPointerException: oops"));
    }

    /** Two tasks and a bar of 0.5, for the fixtures below whose agent never gets there: how the failure reads. */
    abstract static class TwoTasksHalfSucceed {
        @AgentRobustness(tasks = 2)
        void robust(RobustnessResult result) {
            assertThat(result).successAtLeast(0.5);
        }
    }

    static class LoopingFrameworkAgent extends TwoTasksHalfSucceed {
        @AgentUnderTest
        static FrameworkAgent looping = Fixtures.frameworkAgent("looping", e -> {
            while (true) e.call(null, "list_districts", "{}");
        });
    }

    @Test
    void aLoopingAgentIsStoppedAndClassified() {
        Fixtures.assertFailureSays(LoopingFrameworkAgent.class, "none: success 0.000 [0.000, 0.658] over 2 scored episodes; failures: loop 2");
    }

    static class FailingEndpoint extends TwoTasksHalfSucceed {
        @AgentUnderTest
        static FrameworkAgent agent = Fixtures.frameworkAgent("offline", e -> {
            e.beforeModelCall();
            throw e.modelFailed(new RuntimeException("Connection refused: 127.0.0.1:9"));
        });
    }

    @Test
    void anUnreachableModelIsNotScoredAndSaysSo() {
        Fixtures.assertFailureSays(FailingEndpoint.class, "none: no scored episode (2 infrastructure errors; first: model call failed: java.lang.RuntimeException: Connection refused");
    }

    // --- refusals ---

    static class RefusalChecks {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        @AgentRobustness(shift = "task.unsolvable", tasks = 5)
        void robust(RobustnessResult result) {
            assertThat(result).onShift("task.unsolvable").refusesUnsolvable().onShift("none").falseRefusalsAtMost(0.0);
            assertThat(result).onShift("none").refusesUnsolvable();
        }
    }

    @Test
    void refusalsAreCheckedWhereThereAreUnsolvableTasksAndAskedForWhereThereAreNone() {
        String m = Fixtures.failure(RefusalChecks.class);
        assertTrue(m.startsWith("refusesUnsolvable: no unsolvable task under none of agent 'oracle' (add task.unsolvable"), m);
    }

    // --- misconfigured annotations fail with one line ---

    static class UnknownEnvironment {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        @AgentRobustness(env = "nowhere")
        void robust(RobustnessResult result) {}
    }

    static class UnknownShift {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        @AgentRobustness(shift = "tool.teleport")
        void robust(RobustnessResult result) {}
    }

    static class NoTasks {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        @AgentRobustness(tasks = 0)
        void robust(RobustnessResult result) {}
    }

    static class NoAgent {
        @AgentRobustness
        void robust(RobustnessResult result) {}
    }

    static class TwoAgents {
        @AgentUnderTest
        static Agent oracle() { return new OracleAgent(); }

        @AgentUnderTest("other")
        static Agent another() { return new OracleAgent(); }

        @AgentRobustness
        void robust(RobustnessResult result) {}
    }

    static class AgentOfTheWrongType {
        @AgentUnderTest
        static String agent() { return "gpt"; }

        @AgentRobustness
        void robust(RobustnessResult result) {}
    }

    static class AgentThatCannotBeBuilt {
        @AgentUnderTest
        static Agent agent() { throw new IllegalStateException("set OPENAI_BASE_URL to the model's endpoint"); }

        @AgentRobustness
        void robust(RobustnessResult result) {}
    }

    static class FrameworkAgentOnTextCommands {
        @AgentUnderTest
        static FrameworkAgent agent = Fixtures.frameworkAgent("x", e -> "");

        @AgentRobustness(env = "household")
        void robust(RobustnessResult result) {}
    }

    @Test
    void misconfiguredAnnotationsFailWithOneLine() {
        expectOneLine(UnknownEnvironment.class, "@AgentRobustness on UnknownEnvironment.robust(): unknown environment 'nowhere' (known: ");
        expectOneLine(UnknownShift.class, "@AgentRobustness on UnknownShift.robust(): unknown shift 'tool.teleport'");
        expectOneLine(NoTasks.class, "@AgentRobustness on NoTasks.robust(): tasks must be at least 1 (got 0)");
        expectOneLine(NoAgent.class, "@AgentRobustness on NoAgent.robust(): no @AgentUnderTest in NoAgent: annotate a method or field");
        expectOneLine(TwoAgents.class, "@AgentRobustness on TwoAgents.robust(): TwoAgents has several @AgentUnderTest (");
        expectOneLine(AgentOfTheWrongType.class, "@AgentRobustness on AgentOfTheWrongType.robust(): @AgentUnderTest agent gave a java.lang.String, not an Agent or a FrameworkAgent");
        expectOneLine(AgentThatCannotBeBuilt.class,
                "@AgentRobustness on AgentThatCannotBeBuilt.robust(): @AgentUnderTest agent threw java.lang.IllegalStateException: set OPENAI_BASE_URL");
        expectOneLine(FrameworkAgentOnTextCommands.class, "@AgentRobustness on FrameworkAgentOnTextCommands.robust(): household is a text-command environment");
    }

    private static void expectOneLine(Class<?> fixture, String start) {
        Throwable t = Fixtures.thrown(fixture);
        assertInstanceOf(RobustnessConfigurationException.class, t);
        assertTrue(t.getMessage().startsWith(start), t.getMessage());
        assertFalse(t.getMessage().contains("\n"), t.getMessage());
        assertEquals(0, t.getStackTrace().length, "no stack trace, only the reason");
    }
}
