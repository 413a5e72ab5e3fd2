package dev.openagent.server.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.openagent.oracle.OracleAgent;
import dev.openagent.agent.RandomAgent;
import dev.openagent.registry.Environments;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Message;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.TestHttp;
import dev.openagent.server.env.EnvServer;
import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ModelServer;
import dev.openagent.shift.ShiftSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertIterableEquals;

/**
 * What the servers write in the OpenAI chat shapes, byte for byte as recorded before the chat
 * codec was shared with the model client and the training export (commit 9a79662): the messages
 * and tools {@code serve env} returns over its OpenEnv HTTP API (the {@link ChatCodec.Dialect#RESPONSE}
 * dialect; the episode's messages are those of the reset followed by those of each step), and
 * the replies of {@code serve model} over HTTP (with the random {@code id} and the {@code created}
 * time masked), both for a policy that answers with given messages and for a served agent (whose
 * questions to the user become {@code ask_user} calls).
 * <p>
 * One line per episode holds the SHA-256 of what was written for it; for hand-written edge cases
 * (written by the codec: no environment produces them all) and one episode, what was written comes
 * first in full. To re-record after a deliberate change: {@code -Dgolden.write=true}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplyBytesTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/server-replies.txt");

    /** Answers each request with the message the test puts next (the test sends one request at a time). */
    private static final class Scripted implements ChatPolicy {
        volatile Message next;

        @Override
        public String id() { return "scripted"; }

        @Override
        public Message respond(List<Message> messages, List<ToolSpec> tools) { return next; }
    }

    @Test
    void serversWriteTheRecordedBytes() throws Exception {
        Scripted scripted = new Scripted();
        List<String> lines = new ArrayList<>();
        try (ModelServer a = ModelServer.start(scripted, ModelServer.Config.loopback());
             ModelServer b = ModelServer.start(new AgentChatPolicy("random-5", new RandomAgent(5)), ModelServer.Config.loopback());
             EnvServer envServer = EnvServer.start(EnvServer.Config.loopback(false));
             TestHttp scriptedHttp = new TestHttp(a.baseUrl());
             TestHttp agentHttp = new TestHttp(b.baseUrl());
             TestHttp envHttp = new TestHttp(envServer.baseUrl())) {
            List<String> edge = new ArrayList<>();
            edge.add(Json.write(ChatCodec.messages(EDGE_CASES, ChatCodec.Dialect.RESPONSE)));
            for (Message m : EDGE_CASES) {
                if (!m.role().equals("assistant")) continue;
                scripted.next = m;
                edge.add(masked(scriptedHttp.post("/chat/completions", request("scripted", List.of(Message.user("hi")), List.of()))));
            }
            lines.addAll(edge);
            lines.add("edge cases " + digest(edge));
            for (Played played : episodes()) {
                Trajectory t = played.trajectory();
                List<String> written = new ArrayList<>(served(envHttp, played));
                // The remote agent sees the conversation an agent in process sees (text commands included).
                String name = t.env() + " " + t.shiftSpec() + " " + t.agent() + " " + t.seed();
                assertEquals(Json.write(ChatCodec.messages(t.messages(), ChatCodec.Dialect.RESPONSE)), written.get(0), name + ": messages");
                assertEquals(Json.write(ChatCodec.tools(t.tools())), written.get(1), name + ": tools");
                List<Message> m = t.messages();
                for (int i = 2; i < m.size(); i++) {
                    if (!m.get(i).role().equals("assistant")) continue;
                    scripted.next = m.get(i);
                    written.add(masked(scriptedHttp.post("/chat/completions", request("scripted", m.subList(0, i), t.tools()))));
                    written.add(masked(agentHttp.post("/chat/completions", request("random-5", m.subList(0, i), t.tools()))));
                }
                if (name.equals("poi query.underspecified:severity=2 oracle 1")) lines.addAll(written);
                lines.add(name + " " + digest(written));
            }
        }
        if (Boolean.getBoolean("golden.write")) {
            Files.createDirectories(GOLDEN.getParent());
            Files.write(GOLDEN, lines, StandardCharsets.UTF_8);
        }
        assertIterableEquals(Files.readAllLines(GOLDEN, StandardCharsets.UTF_8), lines, "the lines of " + GOLDEN);
    }

    /** An episode run in process, and the actions its agent took, to replay them to {@code serve env}. */
    private record Played(String env, String shift, TaskRequest request, Trajectory trajectory, List<Action> actions) {}

    private static List<Played> episodes() {
        List<Played> out = new ArrayList<>();
        for (String env : List.of("poi", "retail", "household")) {
            for (String spec : List.of("none", "query.underspecified", "obs.runtime-error")) {
                var stack = ShiftSpec.expand(spec).getFirst();
                if (stack.notApplicable(Environments.get(env).info()).isPresent()) continue;
                for (Agent agent : List.<Agent>of(new OracleAgent(), new RandomAgent(11))) {
                    TaskRequest request = new TaskRequest(Split.TEST, 1, 0);
                    List<Action> actions = new ArrayList<>();
                    Agent recording = new Agent() {
                        @Override
                        public String name() { return agent.name(); }

                        @Override
                        public AgentSession begin(Start start, Env e) {
                            AgentSession session = agent.begin(start, e);
                            return last -> {
                                Action a = session.act(last);
                                actions.add(a);
                                return a;
                            };
                        }
                    };
                    Trajectory t = Episodes.run(stack.apply(Environments.get(env).create()), recording, request);
                    out.add(new Played(env, spec, request, t, actions));
                }
            }
        }
        return out;
    }

    /**
     * The episode replayed to {@code serve env} over HTTP ({@code /reset}, {@code /step}, one
     * session): the messages of all its answers as one array, then the tools the reset showed.
     */
    private static List<String> served(TestHttp http, Played p) {
        var reset = Json.object().put("env", p.env()).put("shift", p.shift()).put("split", p.request().split().id())
                .put("seed", p.request().seed()).put("difficulty", p.request().difficulty());
        TestHttp.Response started = http.post("/reset", reset);
        assertEquals(200, started.status(), started.raw().body());
        Map<String, String> session = Map.of(EnvServer.SESSION_HEADER, started.raw().headers().firstValue(EnvServer.SESSION_HEADER).orElseThrow());
        ArrayNode messages = Json.array();
        messages.addAll((ArrayNode) started.body().get("observation").get("messages"));
        JsonNode last = started.body();
        for (Action a : p.actions()) {
            TestHttp.Response step = http.send("POST", "/step", Json.write(Json.object().set("action", OpenAiWire.action(a))), session);
            assertEquals(200, step.status(), step.raw().body());
            messages.addAll((ArrayNode) step.body().get("observation").get("messages"));
            last = step.body();
        }
        assertEquals(true, last.get("done").asBoolean(), p.env() + " " + p.shift() + ": the replayed episode ends where it ended in process");
        assertEquals(200, http.send("POST", "/close", null, session).status());
        return List.of(Json.write(messages), Json.write(started.body().get("observation").get("tools")));
    }

    private static String request(String model, List<Message> messages, List<ToolSpec> tools) {
        var body = Json.object().put("model", model);
        body.set("messages", ChatCodec.messages(messages, ChatCodec.Dialect.RESPONSE));
        if (!tools.isEmpty()) body.set("tools", ChatCodec.tools(tools));
        return Json.write(body);
    }

    /** The reply as sent, with its random id and its creation time masked. */
    private static String masked(TestHttp.Response r) {
        assertEquals(200, r.status(), r.raw().body());
        return r.raw().body().replaceFirst("\"id\":\"chatcmpl-[0-9a-f]+\"", "\"id\":\"ID\"").replaceFirst("\"created\":\\d+", "\"created\":0");
    }

    private static String digest(List<String> written) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (String w : written) sha.update((w + "\n").getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(sha.digest());
    }

    private static final List<Message> EDGE_CASES = List.of(
            new Message("system", null, null, null, null, null),
            Message.user("line one\nline two \u2603"),
            new Message("assistant", "thinking aloud", List.of(Message.ToolCall.of("c1", "get_place", "{\"id\": 1}")), null, null, null),
            Message.tool("c1", "get_place", null, "NOT_FOUND"),
            Message.assistantCalls(List.of(Message.ToolCall.of("c2", "get_place", ""), Message.ToolCall.of("c3", "x", "not json"),
                    new Message.ToolCall("c4", null, new Message.Function("ask_user", "[1, 2]")))),
            new Message("tool", "{\"a\": [1, 2]}", null, "c3", null, null),
            new Message("user", "from the environment", null, null, null, "STEP_LIMIT"),
            Message.assistant(null),
            Message.assistant("CANNOT COMPLETE: no such place"));
}
