package dev.openagent.agent.framework;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.episode.Usage;
import dev.openagent.fake.OracleChat;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.results.GoldFacts;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Framework agents run their own loop; these play that loop by hand, as an adapter does (report each
 * model call, execute each tool call through the episode), to check how episodes are recorded and scored.
 */
class FrameworkEpisodesTest {
    private static final Environment POI = Environments.get("poi");

    /** A framework's tool loop around a "model" that returns the next assistant message. */
    private static String toolLoop(FrameworkEpisode episode, Supplier<Message> model) {
        List<Message> sent = new ArrayList<>(List.of(Message.system("my own prompt"), Message.user(episode.query())));
        List<String> tools = episode.tools().stream().map(ToolSpec::name).toList();
        while (true) {
            episode.beforeModelCall();
            Message reply = model.get();
            episode.modelReplied(List.copyOf(sent), tools, reply, new Usage(10, 2, 1));
            sent.add(reply);
            if (reply.toolCalls() == null) return reply.content();
            for (Message.ToolCall c : reply.toolCalls()) {
                Observation o = episode.call(c.id(), c.function().name(), c.function().arguments());
                sent.add(Message.tool(c.id(), c.function().name(), o.text(), null));
            }
        }
    }

    /** What a framework agent does in one episode. */
    interface Body {
        String run(FrameworkEpisode e) throws Exception;
    }

    private static FrameworkAgent agent(String name, Body body) {
        return new FrameworkAgent() {
            public String name() { return name; }

            public String run(FrameworkEpisode e) throws Exception { return body.run(e); }
        };
    }

    /** One model call whose reply asks for these tool calls (the framework has not executed them yet). */
    private static void modelAsks(FrameworkEpisode e, Message.ToolCall... calls) {
        e.beforeModelCall();
        e.modelReplied(List.of(Message.user(e.query())), List.of(), Message.assistantCalls(List.of(calls)), Usage.NONE);
    }

    private static ShiftStack stack(String shift) { return ShiftSpec.expand(shift).getFirst(); }

    private static FrameworkEpisodes.Run run(String shift, TaskRequest request, FrameworkAgent agent) {
        return FrameworkEpisodes.run(stack(shift).apply(POI.create()), agent, request);
    }

    private static Failure failure(String shift, TaskRequest request, FrameworkEpisodes.Run run) {
        Env env = stack(shift).apply(POI.create());
        env.reset(request);
        return Taxonomy.classify(run.trajectory().outcome(), run.trajectory(), GoldFacts.of(env.task()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tool.semantic-rename", "tool.distractors", "obs.format", "query.underspecified"})
    void anOracleLoopRecordsTheSameEpisodeAsTheOracleAgent(String shift) {
        ShiftStack stack = stack(shift);
        for (TaskRequest r : new TaskPlan(Split.TEST, 12, 5, 0).requests()) {
            OracleChat oracle = new OracleChat(POI, stack, r);
            FrameworkEpisodes.Run run = FrameworkEpisodes.run(stack.apply(POI.create()), agent("oracle", e -> toolLoop(e, oracle::next)), r);
            Trajectory direct = Episodes.run(stack.apply(POI.create()), new OracleAgent(), r);
            assertTrue(run.trajectory().success(), () -> run.trajectory().outcome().detail());
            assertEquals(direct.messages(), run.trajectory().messages());
            assertEquals(direct.stats().turns(), run.trajectory().stats().turns());
            assertEquals(run.transcript().exchanges().size() * 10L, run.trajectory().stats().promptTokens());
            // the agent's own transcript: its own system prompt, then only what each call added
            assertEquals("my own prompt", run.transcript().exchanges().getFirst().sent().getFirst().content());
            assertFalse(run.transcript().exchanges().getFirst().continues());
            run.transcript().exchanges().stream().skip(1).forEach(x -> assertTrue(x.continues()));
        }
    }

    private static final TaskRequest TASK = new TaskRequest(Split.TEST, 11, 2);

    @Test
    void anAgentThatThrowsIsScoredAsAnAgentError() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("thrower", e -> {
            throw new IllegalStateException("my prompt template is broken");
        }));
        assertEquals(Outcome.End.ANSWERED, run.trajectory().outcome().end());
        assertFalse(run.trajectory().success());
        assertEquals(Failure.AGENT_ERROR, failure("none", TASK, run));
        assertTrue(run.transcript().error().contains("my prompt template is broken"), run.transcript().error());
    }

    @Test
    void aThrowAfterCallingAToolThatDoesNotExistIsAHallucinatedTool() {
        // the model asks for a tool the framework does not know; the framework throws before executing anything
        FrameworkEpisodes.Run run = run("none", TASK, agent("hallucinating", e -> {
            modelAsks(e, Message.ToolCall.of("c1", "book_the_best_table", "{}"));
            throw new IllegalArgumentException("no tool named book_the_best_table");
        }));
        assertEquals("UNKNOWN_TOOL", run.trajectory().messages().get(3).error(), "the call reached the sandbox");
        assertEquals(Failure.HALLUCINATED_TOOL, failure("none", TASK, run));
    }

    @Test
    void anAgentThatReturnsNothingGivesAnEmptyAnswer() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("silent", e -> null));
        assertEquals(Outcome.End.ANSWERED, run.trajectory().outcome().end());
        assertEquals(Failure.PREMATURE_ANSWER, failure("none", TASK, run));
    }

    @Test
    void aLoopingAgentMeetsTheStepLimitAndIsStopped() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger stopped = new AtomicInteger();
        FrameworkEpisodes.Run run = run("none", TASK, agent("looping", e -> {
            try {
                return toolLoop(e, () -> {
                    calls.incrementAndGet();
                    return Message.assistantCalls(List.of(Message.ToolCall.of("", "list_districts", "{}")));
                });
            } catch (EpisodeOver over) {
                stopped.incrementAndGet();
                throw over;
            }
        }));
        assertEquals(Outcome.End.STEP_LIMIT, run.trajectory().outcome().end());
        assertEquals(Failure.LOOP, failure("none", TASK, run));
        assertEquals(1, stopped.get());
        assertEquals(run.trajectory().stats().turns(), calls.get(), "no model call after the sandbox ended the episode");
    }

    @Test
    void anAgentThatCallsItsModelForeverWithoutActingIsStopped() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("chatty", e -> {
            while (true) {
                e.beforeModelCall();
                e.modelReplied(List.of(Message.user(e.query())), List.of(), Message.assistant("thinking..."), Usage.NONE);
            }
        }));
        assertEquals(Failure.AGENT_ERROR, failure("none", TASK, run));
        assertEquals(FrameworkEpisode.MAX_MODEL_CALLS, run.transcript().exchanges().size());
    }

    @Test
    void aFailingModelEndpointIsAnInfrastructureErrorEvenWhenTheAgentCarriesOn() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("resilient", e -> {
            try {
                e.beforeModelCall();
                throw e.modelFailed(new RuntimeException("connection refused"));
            } catch (RuntimeException ex) {
                return "Sorry, something went wrong.";
            }
        }));
        assertEquals(Outcome.End.INFRA_ERROR, run.trajectory().outcome().end());
        assertTrue(run.trajectory().outcome().detail().contains("connection refused"));
        assertEquals(Failure.INFRA_ERROR, failure("none", TASK, run));
    }

    @Test
    void callsTheFrameworkNeverExecutesStillReachTheSandboxBeforeTheAnswer() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("direct-return", e -> {
            modelAsks(e, Message.ToolCall.of("a", "list_districts", "{}"), Message.ToolCall.of("b", "nope", "{}"));
            return "done";
        }));
        List<Message> ms = run.trajectory().messages();
        assertEquals(2, ms.get(2).toolCalls().size(), "both calls are one turn");
        assertEquals("UNKNOWN_TOOL", ms.get(4).error());
        assertEquals("done", ms.getLast().content());
        assertEquals(2, run.trajectory().stats().turns());
    }

    @Test
    void eachCallOfATurnIsAnsweredOnceAndACallOfItsOwnIsATurnOfItsOwn() {
        FrameworkEpisodes.Run run = run("none", TASK, agent("direct", e -> {
            modelAsks(e, Message.ToolCall.of("x", "list_districts", "{}"), Message.ToolCall.of("x", "list_districts", "{}"));
            Observation first = e.call("x", "list_districts", "{}");
            Observation second = e.call("x", "list_districts", "{}");
            Observation own = e.call(null, "list_districts", "{}");
            assertNotNull(first.text());
            assertEquals(first.text(), second.text());
            assertEquals(first.text(), own.text());
            return "done";
        }));
        List<Message> ms = run.trajectory().messages();
        assertEquals(List.of("x", "call_1_1"), ms.get(2).toolCalls().stream().map(Message.ToolCall::id).toList(), "repeated ids made unique");
        assertEquals(3, run.trajectory().stats().turns());
        assertEquals(3, run.trajectory().stats().toolCalls());
    }

    @Test
    void aTextCommandEnvironmentIsRefusedWithOneLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FrameworkEpisodes.run(
                Environments.get("household").create(), agent("x", ep -> ""), TASK));
        assertTrue(e.getMessage().startsWith("household is a text-command environment"), e.getMessage());
    }
}
