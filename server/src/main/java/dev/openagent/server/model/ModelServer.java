package dev.openagent.server.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.chat.ChatCodec;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.http.BearerAuth;
import dev.openagent.server.http.Fields;
import dev.openagent.server.http.HttpCall;
import dev.openagent.server.http.HttpService;
import dev.openagent.server.http.JsonHttp;
import dev.openagent.server.wire.OpenAiWire;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * {@code openagent serve model}: an OpenAI-compatible endpoint ({@code GET /v1/models},
 * {@code POST /v1/chat/completions} with {@code tools}, answering {@code tool_calls}) in front of
 * a {@link ChatPolicy}. Non-streaming; see docs/serve-model.md.
 */
public final class ModelServer implements AutoCloseable {
    public record Config(String host, int port, BearerAuth auth, int maxConcurrent, long maxBodyBytes) {
        public static final int DEFAULT_MAX_CONCURRENT = 64;
        public static final long DEFAULT_MAX_BODY = 4 << 20;

        public Config {
            if (port < 0 || port > 65535) throw new UserInputException("--port must be between 0 and 65535");
            if (maxConcurrent < 1) throw new UserInputException("--max-concurrent must be at least 1");
            if (maxBodyBytes < 256) throw new UserInputException("--max-body must be at least 256 bytes");
        }

        public static Config loopback() {
            return new Config("127.0.0.1", 0, BearerAuth.NONE, DEFAULT_MAX_CONCURRENT, DEFAULT_MAX_BODY);
        }
    }

    /**
     * Every field of an OpenAI chat-completions request, with the JSON it takes (as the official
     * clients type them). A wrong type is a 400 naming the field. What a greedy policy has no use for
     * (sampling, penalties, log probabilities, response formats, storage, service options) is accepted
     * and ignored; {@code stream}, {@code n} and {@code tool_choice} are honoured or refused below.
     */
    private static final Map<String, Fields.Type> REQUEST_FIELDS = Map.ofEntries(
            Map.entry("model", Fields.Type.STRING), Map.entry("messages", Fields.Type.ARRAY), Map.entry("tools", Fields.Type.ARRAY),
            Map.entry("tool_choice", Fields.Type.STRING_OR_OBJECT), Map.entry("parallel_tool_calls", Fields.Type.BOOLEAN),
            Map.entry("functions", Fields.Type.ARRAY), Map.entry("function_call", Fields.Type.STRING_OR_OBJECT),
            Map.entry("stream", Fields.Type.BOOLEAN), Map.entry("stream_options", Fields.Type.OBJECT), Map.entry("n", Fields.Type.INTEGER),
            Map.entry("temperature", Fields.Type.NUMBER), Map.entry("top_p", Fields.Type.NUMBER), Map.entry("seed", Fields.Type.INTEGER),
            Map.entry("max_tokens", Fields.Type.INTEGER), Map.entry("max_completion_tokens", Fields.Type.INTEGER),
            Map.entry("stop", Fields.Type.STRING_OR_ARRAY), Map.entry("presence_penalty", Fields.Type.NUMBER),
            Map.entry("frequency_penalty", Fields.Type.NUMBER), Map.entry("logit_bias", Fields.Type.OBJECT),
            Map.entry("logprobs", Fields.Type.BOOLEAN), Map.entry("top_logprobs", Fields.Type.INTEGER),
            Map.entry("response_format", Fields.Type.OBJECT), Map.entry("reasoning_effort", Fields.Type.STRING),
            Map.entry("verbosity", Fields.Type.STRING), Map.entry("modalities", Fields.Type.ARRAY), Map.entry("audio", Fields.Type.OBJECT),
            Map.entry("prediction", Fields.Type.OBJECT), Map.entry("web_search_options", Fields.Type.OBJECT),
            Map.entry("moderation", Fields.Type.OBJECT), Map.entry("metadata", Fields.Type.OBJECT), Map.entry("store", Fields.Type.BOOLEAN),
            Map.entry("user", Fields.Type.STRING), Map.entry("safety_identifier", Fields.Type.STRING),
            Map.entry("prompt_cache_key", Fields.Type.STRING), Map.entry("prompt_cache_retention", Fields.Type.STRING),
            Map.entry("prompt_cache_options", Fields.Type.OBJECT), Map.entry("service_tier", Fields.Type.STRING));

    private final ChatPolicy policy;
    private final Config config;
    private final Semaphore slots;
    private final long created = System.currentTimeMillis() / 1000;
    private final SecureRandom random = new SecureRandom();
    private final HttpService http;

    private ModelServer(ChatPolicy policy, Config config) throws IOException {
        this.policy = policy;
        this.config = config;
        this.slots = new Semaphore(config.maxConcurrent());
        this.http = HttpService.start(config.host(), config.port(), config.auth(), "serve-model", this::route);
    }

    public static ModelServer start(ChatPolicy policy, Config config) throws IOException {
        return new ModelServer(policy, config);
    }

    public int port() { return http.port(); }

    /** The base URL clients configure: {@code http://host:port/v1}. */
    public String baseUrl() {
        return http.baseUrl() + "/v1";
    }

    @Override
    public void close() { http.close(); }

    private void route(HttpCall ex) throws IOException {
        String path = ex.path().replaceAll("/+$", "");
        String method = ex.method();
        switch (path) {
            case "/v1/health" -> {
                JsonHttp.requireMethod(ex, "GET");
                JsonHttp.sendJson(ex, 200, Json.object().put("status", "ok").put("model", policy.id()));
            }
            case "/v1/models" -> {
                JsonHttp.requireMethod(ex, "GET");
                ObjectNode list = Json.object().put("object", "list");
                list.putArray("data").add(model());
                JsonHttp.sendJson(ex, 200, list);
            }
            case "/v1/chat/completions" -> {
                JsonHttp.requireMethod(ex, "POST");
                // A slot is taken once the request is read: clients still sending their bodies never lock others out.
                ObjectNode request = JsonHttp.readObject(ex, config.maxBodyBytes(), false);
                if (!slots.tryAcquire()) {
                    throw new ApiError(429, "too_many_requests", "the server is answering its maximum of "
                            + config.maxConcurrent() + " requests at once; retry shortly");
                }
                try {
                    JsonHttp.sendJson(ex, 200, complete(request));
                } finally {
                    slots.release();
                }
            }
            default -> {
                if (path.startsWith("/v1/models/")) {
                    JsonHttp.requireMethod(ex, "GET");
                    String id = java.net.URLDecoder.decode(path.substring("/v1/models/".length()), java.nio.charset.StandardCharsets.UTF_8);
                    if (!id.equals(policy.id())) throw unknownModel(id);
                    JsonHttp.sendJson(ex, 200, model());
                    return;
                }
                throw ApiError.notFound("not_found", "no route " + method + " " + ex.path()
                        + " (routes: GET /v1/models, GET /v1/models/{id}, POST /v1/chat/completions, GET /v1/health)");
            }
        }
    }

    private ObjectNode model() {
        return Json.object().put("id", policy.id()).put("object", "model").put("created", created).put("owned_by", "openagent");
    }

    private ApiError unknownModel(String id) {
        return ApiError.notFound("model_not_found", "this server serves the model '" + policy.id() + "', not '" + id + "'");
    }

    private ObjectNode complete(ObjectNode body) {
        Fields f = Fields.of(body, "", REQUEST_FIELDS);
        String model = f.optString("model", policy.id());
        if (!model.equals(policy.id())) throw unknownModel(model);
        if (f.optBool("stream", false)) throw ApiError.invalid("stream: streaming is not supported; send \"stream\": false");
        if (f.optInt("n", 1, 1, 1000) != 1) throw ApiError.invalid("n: only one choice per request is supported");
        checkRanges(f);
        JsonNode choice = f.raw("tool_choice");
        if (choice != null && !choice.isNull() && !(choice.isTextual() && choice.asText().equals("auto"))) {
            throw ApiError.invalid("tool_choice: only \"auto\" is supported (the policy decides whether to call a tool)");
        }
        List<Message> messages = OpenAiWire.parseMessages(f.raw("messages"));
        List<ToolSpec> tools = OpenAiWire.parseTools(f.raw("tools"));
        Message reply;
        try {
            reply = policy.respond(messages, tools);
        } catch (IllegalArgumentException e) {
            throw ApiError.invalid(e.getMessage());
        }
        byte[] id = new byte[12];
        random.nextBytes(id);
        ObjectNode out = ChatCodec.completion("chatcmpl-" + HexFormat.of().formatHex(id), System.currentTimeMillis() / 1000, policy.id(),
                reply, words(messages, tools), words(reply));
        return out;
    }

    /**
     * The ranges OpenAI's API documents for the options a greedy policy ignores: out of range is a 400 there, so it
     * is here too, and a client's bug shows up on this server before it reaches a paid one.
     */
    private static void checkRanges(Fields f) {
        f.optInt("max_tokens", 1, 1, Integer.MAX_VALUE);
        f.optInt("max_completion_tokens", 1, 1, Integer.MAX_VALUE);
        f.optInt("top_logprobs", 0, 0, 20);
        f.optNumber("temperature", 1, 0, 2);
        f.optNumber("top_p", 1, 0, 1);
        f.optNumber("presence_penalty", 0, -2, 2);
        f.optNumber("frequency_penalty", 0, -2, 2);
    }

    /** Usage is counted in whitespace-separated words: built-in policies have no subword tokenizer. */
    private static long words(List<Message> messages, List<ToolSpec> tools) {
        long n = 0;
        for (Message m : messages) n += words(m);
        for (ToolSpec t : tools) n += words(t.name() + " " + t.description() + " " + t.parameters());
        return n;
    }

    private static long words(Message m) {
        long n = words(m.content());
        if (m.toolCalls() != null) for (Message.ToolCall c : m.toolCalls()) n += words(c.function().name() + " " + c.function().arguments());
        return n;
    }

    private static long words(String s) {
        if (s == null || s.isBlank()) return 0;
        return s.strip().split("\\s+").length;
    }
}
