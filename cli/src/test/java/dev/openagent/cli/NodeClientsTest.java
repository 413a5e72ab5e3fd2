package dev.openagent.cli;

import dev.openagent.registry.Catalog;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ModelServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The servers driven by the official npm clients (cli/src/test/node, installed by {@code .ci/run}
 * with {@code npm ci}): {@code serve model} by the {@code openai} package, sending every field of a
 * chat-completions request; {@code serve mcp} by the TypeScript MCP SDK's client. Skipped without
 * node and the installed packages, except under CI, where that is a failure.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NodeClientsTest {
    static final Path NODE_DIR = Path.of("src/test/node").toAbsolutePath();

    @BeforeAll
    static void nodeAndThePackagesAreInstalled() {
        boolean ready = Files.isDirectory(NODE_DIR.resolve("node_modules/openai"))
                && Files.isDirectory(NODE_DIR.resolve("node_modules/@modelcontextprotocol/sdk")) && nodeRuns();
        if ("true".equals(System.getenv("CI"))) assertTrue(ready, "CI needs node and `npm ci` in " + NODE_DIR + " (.ci/run does it)");
        assumeTrue(ready, "node or the npm clients are not installed (cd cli/src/test/node && npm ci): skipping");
    }

    /**
     * Conversations taken from real episodes (a random agent in poi, cut before each of its turns)
     * sent through the {@code openai} client with every optional request field set: each reply is
     * the turn the agent took in-process, with {@code tool_calls[].function.arguments} a JSON
     * string (the script checks its type), and wrong types and unknown fields are 400s naming the field.
     */
    @Test
    void theOpenAiClientGetsTheInProcessRepliesAndItsBadRequestsAreRefused(@TempDir Path dir) throws Exception {
        Env env = Environments.get("poi").create();
        ArrayNode conversations = Json.array();
        List<Message> expected = new ArrayList<>();
        for (TaskRequest t : List.of(new TaskRequest(Split.TEST, 11, 2), new TaskRequest(Split.TEST, 12, 3))) {
            Trajectory traj = Episodes.run(env, new RandomAgent(5), t);
            List<Message> messages = traj.messages();
            for (int i = 2; i < messages.size() && expected.size() < 8; i++) {
                if (!messages.get(i).role().equals("assistant")) continue;
                ObjectNode c = conversations.addObject();
                c.set("messages", ChatCodec.messages(messages.subList(0, i), ChatCodec.Dialect.REQUEST));
                c.set("tools", ChatCodec.tools(traj.tools()));
                expected.add(messages.get(i));
            }
        }
        assertTrue(expected.stream().anyMatch(m -> m.toolCalls() != null), "some turns call tools");

        ObjectNode plan = Json.object();
        plan.set("conversations", conversations);
        ArrayNode bad = plan.putArray("bad");
        Map<String, String> wrong = Map.of(
                "temperature", "{\"temperature\":\"hot\"}",
                "n", "{\"n\":1.5}",
                "logprobs", "{\"logprobs\":\"yes\"}",
                "response_format", "{\"response_format\":\"json\"}",
                "stop", "{\"stop\":7}",
                "frobnicate", "{\"frobnicate\":1}");
        wrong.forEach((name, fields) -> bad.addObject().put("name", name).set("fields", Json.parse(fields)));
        Path planFile = dir.resolve("plan.json");
        Files.writeString(planFile, Json.MAPPER.writeValueAsString(plan));

        RandomAgent agent = new RandomAgent(5);
        try (ModelServer server = ModelServer.start(new AgentChatPolicy("random-5", agent), ModelServer.Config.loopback())) {
            List<JsonNode> lines = node("openai-chat.mjs", server.baseUrl(), "random-5", planFile.toString());
            assertEquals(Json.tree(Map.of("done", true)), lines.getLast(), lines.toString());
            for (int i = 0; i < expected.size(); i++) {
                JsonNode reply = lines.get(i).path("message");
                Message want = expected.get(i);
                assertEquals(i, lines.get(i).path("index").asInt());
                if (want.toolCalls() == null) {
                    assertEquals(want.content(), reply.path("content").asText(), reply.toString());
                    assertEquals("stop", lines.get(i).path("finish_reason").asText());
                    continue;
                }
                assertEquals("tool_calls", lines.get(i).path("finish_reason").asText());
                JsonNode calls = reply.path("tool_calls");
                assertEquals(want.toolCalls().size(), calls.size(), reply.toString());
                for (int k = 0; k < calls.size(); k++) {
                    assertEquals(want.toolCalls().get(k).function().name(), calls.get(k).path("function").path("name").asText());
                    assertTrue(calls.get(k).path("function").path("arguments").isTextual(), "arguments must be JSON text: " + reply);
                    assertEquals(want.toolCalls().get(k).function().arguments(), calls.get(k).path("function").path("arguments").asText());
                }
            }
            List<JsonNode> refusals = lines.subList(expected.size(), lines.size() - 1);
            assertEquals(wrong.size(), refusals.size(), refusals.toString());
            for (JsonNode r : refusals) {
                assertEquals(400, r.path("status").asInt(), r.toString());
                assertTrue(r.path("message").asText().contains(r.path("bad").asText()), "the error names the field: " + r);
            }
        }
    }

    /**
     * The TypeScript MCP SDK's client starts {@code openagent serve mcp --stdio}, lists exactly the
     * shifted tools an agent sees in-process, reads the task and solves it with the oracle's calls.
     */
    @Test
    void theTypeScriptMcpClientListsTheToolsAndSolvesTheTask(@TempDir Path dir) throws Exception {
        Env local = EnvChoice.of(new Catalog(), "poi", ServeMcpTest.SHIFT).create();
        Start start = local.reset(new TaskChoice(Split.TEST, 0, 1).byIndex(ServeMcpTest.TASK));
        ArrayNode steps = Json.array();
        for (Action a : BenchCommand.oracleActions(local, start)) {
            switch (a) {
                case Action.CallTools c -> {
                    for (Action.ToolCall call : c.calls()) steps.addObject().put("name", call.name()).set("arguments", Json.parse(call.arguments()));
                }
                case Action.Answer ans -> steps.addObject().put("name", "submit_answer").putObject("arguments").put("answer", ans.text());
                case Action.Refuse ref -> steps.addObject().put("name", "refuse").putObject("arguments").put("reason", ref.reason());
                default -> throw new AssertionError("unexpected oracle action " + a);
            }
        }
        Path planFile = dir.resolve("plan.json");
        Files.writeString(planFile, Json.MAPPER.writeValueAsString(Json.object().set("steps", steps)));

        List<String> args = new ArrayList<>(List.of(planFile.toString(), "--"));
        args.addAll(ServeMcpTest.serverCommand(List.of("--out", dir.resolve("out").toString()), "--stdio"));
        List<JsonNode> lines = node("mcp-client.mjs", args.toArray(String[]::new));

        assertEquals("openagent", lines.get(0).path("server").path("name").asText(), lines.get(0).toString());
        JsonNode tools = lines.get(1).path("tools");
        for (ToolSpec t : start.tools()) {
            JsonNode served = null;
            for (JsonNode s : tools) if (s.path("name").asText().equals(t.name())) served = s;
            assertTrue(served != null, t.name() + " not served: " + tools);
            assertEquals(t.description(), served.path("description").asText());
            assertTrue(t.parameters().equals(ServeMcpTest.SAME_JSON, served.path("inputSchema")), t.name() + ": " + served);
        }
        assertEquals(start.tools().size() + 3, tools.size(), "the task's tools and get_task, submit_answer, refuse");
        assertTrue(lines.get(2).path("task").asText().contains(start.query()), lines.get(2).toString());
        List<JsonNode> calls = lines.subList(3, lines.size() - 1);
        assertEquals(steps.size(), calls.size(), lines.toString());
        for (JsonNode c : calls) assertFalse(c.path("isError").asBoolean(), c.toString());
        assertTrue(calls.getLast().path("text").asText().contains("\"success\":true"), calls.getLast().toString());
        assertEquals(Json.tree(Map.of("done", true)), lines.getLast());
    }

    /** Runs a script of {@link #NODE_DIR} and returns its JSON lines; a non-zero exit fails with its output. */
    static List<JsonNode> node(String script, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("node", script));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).directory(NODE_DIR.toFile()).redirectError(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        byte[][] stderr = new byte[1][];
        Thread err = Thread.ofVirtual().start(() -> {
            try {
                stderr[0] = p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                stderr[0] = e.toString().getBytes(StandardCharsets.UTF_8);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), script + " did not finish");
        err.join();
        String errText = new String(stderr[0], StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), script + " failed:\n" + out + errText);
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split("\n")) if (!line.isBlank()) lines.add(Json.parse(line));
        assertFalse(lines.isEmpty(), script + " printed nothing; stderr:\n" + errText);
        return lines;
    }

    static boolean nodeRuns() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
