package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.openagent.agent.framework.AgentTranscript;
import dev.openagent.agent.framework.FrameworkAgent;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.junit.AgentRobustness;
import dev.openagent.junit.AgentUnderTest;
import dev.openagent.junit.RobustnessResult;
import dev.openagent.langchain4j.LangChain4jAgent;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ModelServer;
import dev.openagent.springai.SpringAiAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.openai.OpenAiChatOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.openagent.junit.RobustnessAssert.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/**
 * The Java-agent adapters (docs/java-agents.md) as a team runs them, in the build: a LangChain4j AI service on
 * LangChain4j's own {@code OpenAiChatModel} and a Spring AI {@code ChatClient} on Spring AI's own
 * {@code OpenAiChatModel} (the official OpenAI Java SDK underneath), each against {@code serve model} serving the
 * tiny built-in policy, run by {@code @AgentRobustness} without shifts and under renamed tools. What a user relies
 * on, not the policy's skill: every model call went over HTTP to serve model with the episode's shifted tools, the
 * policy's tool calls came back through the framework's client and reached the sandbox (each answered by an
 * observation), every episode is scored, and the robustness result and its report come out.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class JavaAgentsServeModelTest {
    static final String SHIFT = "tool.semantic-rename";
    static final int TASKS = 3;

    /** serve model and what it was asked; read by the agents under test (the JUnit platform runs them in this JVM). */
    static ModelServer server;
    static Recording served;

    @BeforeAll
    static void serveTheTinyPolicy() throws Exception {
        served = new Recording(PolicyChatPolicy.load(TinyPolicy.checkpoint(), TinyPolicy.ID));
        server = ModelServer.start(served, ModelServer.Config.loopback());
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (served != null) served.close();
    }

    /** One request serve model answered: the tools it offered, and the calls its reply made (name and arguments). */
    record Request(List<String> tools, List<String> calls) {}

    /** A tool call as compared here: its name and its arguments as JSON (however the text was spaced). */
    static String call(String name, String arguments) {
        return name + " " + Json.parse(arguments);
    }

    /** The served policy, keeping each request it answers. */
    static final class Recording implements ChatPolicy {
        private final ChatPolicy policy;
        final List<Request> requests = new CopyOnWriteArrayList<>();

        Recording(ChatPolicy policy) { this.policy = policy; }

        @Override
        public String id() { return policy.id(); }

        @Override
        public Message respond(List<Message> messages, List<ToolSpec> tools) {
            Message reply = policy.respond(messages, tools);
            List<String> calls = reply.toolCalls() == null ? List.of()
                    : reply.toolCalls().stream().map(c -> call(c.function().name(), c.function().arguments())).toList();
            requests.add(new Request(tools.stream().map(ToolSpec::name).toList(), calls));
            return reply;
        }

        @Override
        public void close() { policy.close(); }
    }

    /** A LangChain4j concierge on LangChain4j's OpenAI client, as docs/java-agents.md writes one. */
    static class LangChain4jRobustness {
        public interface Concierge {
            String chat(String request);
        }

        @AgentUnderTest
        static FrameworkAgent concierge() {
            dev.langchain4j.model.chat.ChatModel model = OpenAiChatModel.builder().baseUrl(server.baseUrl()).apiKey("none")
                    .modelName(TinyPolicy.ID).temperature(0.0).timeout(Duration.ofSeconds(60)).maxRetries(1).build();
            return LangChain4jAgent.of("langchain4j-concierge", model, episode -> AiServices.builder(Concierge.class)
                    .chatModel(episode.chatModel()).toolProvider(episode.toolProvider())
                    .systemMessageProvider(memoryId -> episode.systemPrompt()).build().chat(episode.query()));
        }

        @AgentRobustness(env = "poi", shift = SHIFT, tasks = TASKS, seed = 1, difficulty = 1)
        void runsUnderRenamedTools(RobustnessResult result) {
            assertScoredWithToolCalls(result);
        }
    }

    /** A Spring AI concierge on Spring AI's OpenAI client, its ChatClient's advisor running the tool loop. */
    static class SpringAiRobustness {
        @AgentUnderTest
        static FrameworkAgent concierge() {
            org.springframework.ai.chat.model.ChatModel model = org.springframework.ai.openai.OpenAiChatModel.builder()
                    .options(OpenAiChatOptions.builder().baseUrl(server.baseUrl()).apiKey("none").model(TinyPolicy.ID).temperature(0.0).build()).build();
            return SpringAiAgent.of("spring-ai-concierge", model, episode -> ChatClient.builder(episode.chatModel())
                    .defaultSystem(episode.systemPrompt()).defaultToolCallbacks(episode.toolCallbacks()).build()
                    .prompt().user(episode.query()).call().content());
        }

        @AgentRobustness(env = "poi", shift = SHIFT, tasks = TASKS, seed = 1, difficulty = 1)
        void runsUnderRenamedTools(RobustnessResult result) {
            assertScoredWithToolCalls(result);
        }
    }

    /**
     * What the robustness test itself checks, as a user's would: both conditions ran every task, every episode is
     * scored (no infrastructure error, no exception out of the framework), and the agent's tool calls reached the
     * sandbox: each answered by an observation, under the shift by the renamed tools the episode showed.
     */
    static void assertScoredWithToolCalls(RobustnessResult result) {
        assertEquals(List.of("none", SHIFT), result.shifts());
        assertEquals(2 * TASKS, result.episodes().size());
        assertThat(result).onEveryShift().failuresAtMost("agent_error", 0.0);
        for (EpisodeResult e : result.episodes()) {
            assertFalse(e.infraError(), e.id() + ": " + e.outcome());
            assertNotNull(e.trajectory(), e.id());
            assertTrue(e.stats().toolCalls() > 0, e.id() + ": no tool call reached the sandbox");
            Set<String> shown = e.trajectory().tools().stream().map(ToolSpec::name).collect(Collectors.toSet());
            List<Message> messages = e.trajectory().messages();
            for (int i = 0; i < messages.size(); i++) {
                Message m = messages.get(i);
                if (m.toolCalls() == null) continue;
                for (var call : m.toolCalls()) {
                    assertTrue(shown.contains(call.function().name()) || call.function().name().equals("ask_user"), e.id() + ": " + call.function().name() + " not among " + shown);
                    boolean answered = messages.subList(i + 1, messages.size()).stream().anyMatch(x -> x.role().equals("tool") && call.id().equals(x.toolCallId()));
                    assertTrue(answered, e.id() + ": the sandbox answered no observation to " + call.id());
                }
            }
            AgentTranscript own = result.transcript(e);
            assertFalse(own.isEmpty(), e.id() + ": the framework's own transcript");
        }
        assertTrue(Files.isRegularFile(result.report()), "the report: " + result.report());
    }

    @Test
    void theLangChain4jAdapterThroughLangChain4jsOpenAiClient() throws Exception {
        runRobustness(LangChain4jRobustness.class, "langchain4j-concierge");
    }

    @Test
    void theSpringAiAdapterThroughSpringAisOpenAiClient() throws Exception {
        runRobustness(SpringAiRobustness.class, "spring-ai-concierge");
    }

    private static List<String> sortedLists(List<List<String>> lists) {
        return lists.stream().map(String::valueOf).sorted().toList();
    }

    /**
     * Runs a robustness class on the JUnit platform (as the user's build runs it), then checks from outside what it
     * wrote and what serve model was asked: every model call the framework made is one request serve model answered,
     * each offering the episode's tools (renamed ones under the shift), and some replies called tools.
     */
    private static void runRobustness(Class<?> robustness, String agent) throws Exception {
        Path reports = Path.of("target", "openagent", robustness.getSimpleName(), "runsUnderRenamedTools");
        if (Files.exists(reports)) {
            try (var files = Files.walk(reports)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        int before = served.requests.size();
        List<Event> finished = EngineTestKit.engine("junit-jupiter").selectors(selectClass(robustness)).execute().testEvents().finished().list();
        assertEquals(1, finished.size());
        TestExecutionResult outcome = finished.getFirst().getRequiredPayload(TestExecutionResult.class);
        assertEquals(TestExecutionResult.Status.SUCCESSFUL, outcome.getStatus(), () -> "the robustness test failed: " + outcome.getThrowable().map(Throwable::toString).orElse(""));
        List<Request> requests = new ArrayList<>(served.requests.subList(before, served.requests.size()));

        // The report files, as the extension writes them.
        JsonNode summary = Json.parse(Files.readString(reports.resolve("summary.json")));
        assertEquals(2 * TASKS, summary.path("scored").asInt(), summary.toString());
        assertTrue(summary.path("by_shift").has("none") && summary.path("by_shift").has(SHIFT), summary.toString());
        assertTrue(Files.isRegularFile(reports.resolve("report.md")) && Files.isRegularFile(reports.resolve("report.html")));
        List<JsonNode> trajectories = Files.readAllLines(reports.resolve("trajectories.jsonl")).stream().map(Json::parse).toList();
        assertEquals(2 * TASKS, trajectories.size());

        // Every model call the agent's framework made (as its own transcript records it, with the tools it offered) is a
        // request serve model answered, offering the same tools.
        List<List<String>> offered = new ArrayList<>();
        for (JsonNode t : trajectories) {
            assertEquals(agent, t.path("agent").asText(), t.path("agent").toString());
            for (JsonNode x : t.path("agent_transcript").path("exchanges")) {
                offered.add(x.path("tools").valueStream().map(JsonNode::asText).sorted().toList());
            }
        }
        List<List<String>> received = requests.stream().map(r -> r.tools().stream().sorted().toList()).toList();
        assertEquals(sortedLists(offered), sortedLists(received), "the model calls the adapter recorded, against the requests serve model answered");
        // The requests offered the sandbox's tools: the renamed ones in the shifted episodes.
        Set<String> renamed = trajectories.stream().filter(t -> !t.path("shifts").isEmpty())
                .flatMap(t -> t.path("tools").valueStream().map(x -> x.path("name").asText())).collect(Collectors.toSet());
        assertFalse(renamed.contains("search_places"), "tool.semantic-rename renames poi's tools: " + renamed);
        assertTrue(requests.stream().anyMatch(r -> r.tools().size() > 1 && renamed.containsAll(r.tools())), "a request offered the renamed tools: " + requests);
        assertTrue(requests.stream().anyMatch(r -> r.tools().contains("search_places")), "a request offered the unshifted tools");
        // Every tool call serve model replied reached the sandbox as the policy made it, once: the trajectories' calls.
        List<String> replied = requests.stream().flatMap(r -> r.calls().stream()).sorted().toList();
        List<String> reached = trajectories.stream().flatMap(t -> t.path("messages").valueStream())
                .flatMap(m -> m.path("tool_calls").valueStream())
                .map(c -> call(c.path("function").path("name").asText(), c.path("function").path("arguments").asText())).sorted().toList();
        assertFalse(replied.isEmpty(), "replies that call tools: " + requests);
        assertEquals(replied, reached, "the tool calls serve model sent, against those that reached the sandbox");
    }
}
