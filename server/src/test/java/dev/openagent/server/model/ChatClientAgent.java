package dev.openagent.server.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Conversation;
import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.server.TestHttp;
import dev.openagent.server.wire.OpenAiWire;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain OpenAI-compatible chat agent for tests: sends the conversation and the tools to
 * {@code /v1/chat/completions}, turns the reply's tool calls into tool calls and its text into
 * the final answer (or a refusal). It reads nothing but what the endpoint returns.
 */
final class ChatClientAgent implements Agent {
    private final TestHttp http;
    private final String model;

    ChatClientAgent(TestHttp http, String model) {
        this.http = http;
        this.model = model;
    }

    @Override
    public String name() { return "chat:" + model; }

    @Override
    public AgentSession begin(Start start, Env env) {
        Conversation conversation = new Conversation(start);
        ArrayNode tools = OpenAiWire.tools(start.tools());
        return new AgentSession() {
            @Override
            public Action act(Step last) {
                if (last != null) conversation.add(last);
                ObjectNode request = Json.object().put("model", model);
                request.set("messages", OpenAiWire.messages(conversation.messages()));
                request.set("tools", tools);
                TestHttp.Response r = http.post("/chat/completions", request);
                if (r.status() != 200) throw new AssertionError("chat completion failed: " + r.status() + " " + r.body());
                JsonNode message = r.body().get("choices").get(0).get("message");
                Action action;
                if (message.hasNonNull("tool_calls") && !message.get("tool_calls").isEmpty()) {
                    List<Action.ToolCall> calls = new ArrayList<>();
                    for (JsonNode c : message.get("tool_calls")) {
                        calls.add(new Action.ToolCall(c.get("id").asText(), c.get("function").get("name").asText(),
                                c.get("function").get("arguments").asText()));
                    }
                    action = new Action.CallTools(calls);
                } else {
                    action = Protocol.finalText(message.path("content").asText(""));
                }
                conversation.add(action);
                return action;
            }
        };
    }
}
