package dev.openagent.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import dev.langchain4j.service.AiServices;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.FrameworkEpisodes;
import dev.openagent.agent.framework.TranscriptSource;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.OracleChat;
import dev.openagent.json.Json;
import dev.openagent.metrics.Failure;
import dev.openagent.metrics.Taxonomy;
import dev.openagent.results.GoldFacts;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static dev.openagent.agent.framework.FrameworkAssertions.assertInfraError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real LangChain4j AI service (its own tool loop) in the sandbox, against zero-latency fake models. */
class LangChain4jAgentTest {
    private static final Environment POI = Environments.get("poi");
    private static final TaskRequest TASK = new TaskRequest(Split.TEST, 11, 2);

    /** The user's agent: an AI service interface, as a team writes it. */
    interface Concierge {
        String chat(String request);
    }

    static LangChain4jAgent concierge(FakeModels.Scripted model) {
        return LangChain4jAgent.of("concierge", model, episode -> AiServices.builder(Concierge.class)
                .chatModel(episode.chatModel())
                .toolProvider(episode.toolProvider())
                .systemMessageProvider(id -> "You are the concierge of a city guide.\n" + episode.systemPrompt())
                .build()
                .chat(episode.query()));
    }

    private static ShiftStack stack(String shift) { return ShiftSpec.expand(shift).getFirst(); }

    private static Failure failure(ShiftStack stack, TaskRequest r, Trajectory t) {
        Env env = stack.apply(POI.create());
        env.reset(r);
        return Taxonomy.classify(t.outcome(), t, GoldFacts.of(env.task()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "tool.semantic-rename", "tool.schema-noise", "tool.distractors", "query.underspecified"})
    void anAiServiceSolvesTasksThroughTheShiftedTools(String shift) {
        ShiftStack stack = stack(shift);
        for (TaskRequest r : new TaskPlan(Split.TEST, 8, 3, 0).requests()) {
            FakeModels.Scripted model = FakeModels.oracle(new OracleChat(POI, stack, r));
            FrameworkEpisodes.Run run = FrameworkEpisodes.run(stack.apply(POI.create()), concierge(model), r);
            Trajectory t = run.trajectory();
            assertTrue(t.success(), () -> shift + ": " + t.outcome() + "\n" + run.transcript().render());
            List<String> shown = t.tools().stream().map(ToolSpec::name).toList();
            // the model was offered the tools as the shift shows them, through LangChain4j
            assertEquals(shown, model.requests.getFirst().toolSpecifications().stream().map(ToolSpecification::name).toList());
            AgentTranscript own = run.transcript();
            assertEquals(model.requests.size(), own.exchanges().size());
            assertEquals(shown, own.exchanges().getFirst().tools());
            Message system = own.exchanges().getFirst().sent().getFirst();
            assertTrue(system.content().startsWith("You are the concierge of a city guide."), system.content());
            assertEquals(t.stats().turns(), own.exchanges().size(), "one model call per turn, the last one answers");
            assertEquals(100L * own.exchanges().size(), t.stats().promptTokens());
        }
    }

    @Test
    void parallelToolCallsOfOneReplyAreOneTurnAlsoWhenExecutedConcurrently() {
        FakeModels.Scripted model = new FakeModels.Scripted(request -> request.messages().size() <= 2
                ? AiMessage.from(List.of(call("a", "list_districts", "{}"), call("b", "list_districts", "{}"), call("c", "get_reviews", "{}")))
                : AiMessage.from("done"));
        LangChain4jAgent agent = LangChain4jAgent.of("concurrent", model, episode -> AiServices.builder(Concierge.class)
                .chatModel(episode.chatModel()).toolProvider(episode.toolProvider()).executeToolsConcurrently().build().chat(episode.query()));
        Trajectory t = FrameworkEpisodes.run(POI.create(), agent, TASK).trajectory();
        List<Message> ms = t.messages();
        assertEquals(3, ms.get(2).toolCalls().size());
        assertEquals(2, t.stats().turns());
        assertEquals("INVALID_ARGUMENTS", ms.get(5).error(), "the sandbox validated the arguments");
        // the tool results the model saw next are the sandbox's, error included
        List<String> seen = model.requests.get(1).messages().stream()
                .filter(m -> m instanceof dev.langchain4j.data.message.ToolExecutionResultMessage)
                .map(m -> ((dev.langchain4j.data.message.ToolExecutionResultMessage) m).text()).toList();
        assertEquals(List.of(ms.get(3).content(), ms.get(4).content(), ms.get(5).content()), seen);
    }

    @Test
    void aToolNameLangChain4jDoesNotKnowReachesTheSandboxAndIsAHallucinatedTool() {
        // LangChain4j's default strategy throws on a tool name it does not know
        FakeModels.Scripted model = new FakeModels.Scripted(request -> AiMessage.from(call("x", "book_the_best_table", "{}")));
        FrameworkEpisodes.Run run = FrameworkEpisodes.run(POI.create(), concierge(model), TASK);
        assertEquals("UNKNOWN_TOOL", run.trajectory().messages().get(3).error());
        assertEquals(Failure.HALLUCINATED_TOOL, failure(ShiftStack.NONE, TASK, run.trajectory()));
        assertTrue(run.transcript().error().contains("book_the_best_table"), run.transcript().error());
    }

    @Test
    void aModelThatFailsMakesAnInfrastructureError() {
        FakeModels.Scripted model = new FakeModels.Scripted(request -> {
            throw new RuntimeException("HTTP 503 from the model endpoint");
        });
        assertInfraError(FrameworkEpisodes.run(POI.create(), concierge(model), TASK), "HTTP 503");
    }

    @Test
    void aBareChatModelIsAnAgentOfTheHarness() {
        for (String shift : List.of("none", "tool.semantic-rename")) {
            ShiftStack stack = stack(shift);
            for (TaskRequest r : new TaskPlan(Split.TEST, 6, 9, 0).requests()) {
                FakeModels.Scripted model = FakeModels.oracle(new OracleChat(POI, stack, r));
                AtomicReference<AgentSession> session = new AtomicReference<>();
                Agent bare = LangChain4jAgent.chatModel("bare", model);
                Agent capturing = new Agent() {
                    public String name() { return bare.name(); }
                    public AgentSession begin(Start start, Env env) {
                        session.set(bare.begin(start, env));
                        return session.get();
                    }
                };
                Trajectory t = Episodes.run(stack.apply(POI.create()), capturing, r);
                assertTrue(t.success(), () -> t.outcome().toString());
                // what LangChain4j sent last is the trajectory so far, as the harness renders it
                List<Message> lastSent = Messages.of(model.requests.getLast().messages());
                assertEquals(t.messages().subList(0, lastSent.size()), lastSent);
                AgentTranscript own = ((TranscriptSource) session.get()).transcript();
                assertEquals(model.requests.size(), own.exchanges().size());
            }
        }
    }

    @Test
    void parameterSchemasReachTheModelVerbatim() {
        Env env = stack("tool.schema-noise").apply(POI.create());
        Start start = env.reset(TASK);
        for (ToolSpec tool : start.tools()) {
            ToolSpecification spec = Tools.specification(tool);
            // compared as JSON text read back by one parser (number node types differ between mappers)
            JsonNode sent = Json.parse(Json.write(JsonSchemaElementUtils.toMap(spec.parameters())));
            JsonNode shown = Json.parse(Json.write(tool.parameters()));
            assertEquals(shown.path("properties"), sent.path("properties"), tool.name());
            assertEquals(shown.path("required"), sent.path("required"), tool.name());
            assertEquals(tool.description(), spec.description());
        }
    }

    private static ToolExecutionRequest call(String id, String name, String args) {
        return ToolExecutionRequest.builder().id(id).name(name).arguments(args).build();
    }

}
