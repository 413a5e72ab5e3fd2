package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

/**
 * One client session with the user's MCP server: a process started over stdio (its stderr goes to a log
 * file, never into an observation) or a Streamable HTTP endpoint. A server that cannot start, crashes, hangs
 * or times out raises {@link InfrastructureException}; a tool's own error is {@link Result#error}.
 * Public for the shift proxy ({@code dev.openagent.proxy}), which reaches a live upstream through it.
 */
public final class McpConnection implements AutoCloseable {
    private static final int STDERR_TAIL = 5;

    private final McpAsyncClient client;
    private final Duration timeout;
    private final PrintWriter log;
    private final Deque<String> tail = new ArrayDeque<>();
    private final String what;

    /** A tool's answer: its text (the text contents joined) and whether the tool reported an error. */
    public record Result(String text, boolean error) {}

    /** A notification the server sent (logging, progress, a list or a resource that changed), as JSON-RPC method and params. */
    public record Notification(String method, JsonNode params) {}

    /** The server's own JSON-RPC error for a forwarded request: its code and message, passed on unchanged. */
    public static final class RemoteError extends RuntimeException {
        private final int code;

        RemoteError(int code, String message) {
            super(message);
            this.code = code;
        }

        public int code() { return code; }
    }

    private static final McpJsonMapper MCP_JSON = McpJsonDefaults.getMapper();
    /** Set by the process watch when a stdio server exits: calls waiting on it fail at once instead of at the timeout. */
    private final reactor.core.publisher.Sinks.Empty<Void> exited = reactor.core.publisher.Sinks.empty();

    /** The transport, for the one message the SDK client cannot send: {@code notifications/cancelled}. */
    private final Tracking transport;
    /** The server process's transport (null over HTTP). */
    private final StdioServer stdio;
    /** The tool call in flight: its cancel signal (null when none), and its JSON-RPC id once the SDK has sent it. */
    private volatile reactor.core.publisher.Sinks.Empty<Void> callCancelled;
    private volatile Object callId;

    private McpConnection(McpAsyncClient client, Tracking transport, StdioServer stdio, Duration timeout, PrintWriter log, String what) {
        this.client = client;
        this.transport = transport;
        this.stdio = stdio;
        this.timeout = timeout;
        this.log = log;
        this.what = what;
    }

    /**
     * Starts the server of {@code mcp} (with {@code {workdir}} and {@code {dir}} already replaced) and initialises the session.
     *
     * @param log where the server's stderr goes
     */
    public static McpConnection open(List<String> command, String url, Map<String, String> env, Duration timeout, Path log) {
        return open(command, url, env, timeout, log, n -> {});
    }

    /**
     * As {@link #open(List, String, Map, Duration, Path)}, telling {@code notifications} what the server sends
     * (logging messages, progress, list and resource changes), for the proxy to pass on.
     */
    public static McpConnection open(List<String> command, String url, Map<String, String> env, Duration timeout, Path log,
                                     java.util.function.Consumer<Notification> notifications) {
        PrintWriter out;
        try {
            Files.createDirectories(log.getParent());
            out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new UserInputException("cannot write the server log " + log + ": " + e.getMessage(), e);
        }
        McpClientTransport transport;
        StdioServer stdioServer = null;
        String what;
        McpConnection[] self = new McpConnection[1];
        if (url != null) {
            URI u = URI.create(url);
            String base = u.getScheme() + "://" + u.getRawAuthority();
            String endpoint = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/mcp" : u.getRawPath();
            transport = HttpClientStreamableHttpTransport.builder(base).endpoint(endpoint).connectTimeout(timeout).build();
            what = "MCP server at " + url;
        } else {
            String missing = missingProgram(command.getFirst());
            if (missing != null) {
                out.close();
                throw new InfrastructureException("cannot start '" + command.getFirst() + "': " + missing);
            }
            StdioServer stdio = new StdioServer(command, env, MCP_JSON, line -> {
                out.println(line);
                McpConnection c = self[0];
                if (c != null) c.remember(line);
            }, line -> out.println("openagent: skipped a line of the server's stdout that is not a JSON-RPC message: "
                    + (line.length() > 300 ? line.substring(0, 300) + "..." : line)), () -> {
                McpConnection c = self[0];
                if (c != null) c.exited.tryEmitEmpty();
            });
            stdioServer = stdio;
            transport = stdio;
            what = "MCP server '" + String.join(" ", command) + "'";
        }
        // A server that does not answer initialize within the timeout counts as hung, as a request does.
        Duration startup = timeout;
        java.util.function.Function<Notification, reactor.core.publisher.Mono<Void>> tell = n -> reactor.core.publisher.Mono.fromRunnable(() -> notifications.accept(n));
        Tracking tracking = new Tracking(transport, self);
        McpAsyncClient client = McpClient.async(tracking).requestTimeout(startup).initializationTimeout(startup)
                .clientInfo(new McpSchema.Implementation("openagent", "0.1.0"))
                .loggingConsumer(m -> tell.apply(new Notification("notifications/message", tree(m))))
                .progressConsumer(p -> tell.apply(new Notification("notifications/progress", tree(p))))
                .toolsChangeConsumer(t -> tell.apply(new Notification("notifications/tools/list_changed", null)))
                .promptsChangeConsumer(t -> tell.apply(new Notification("notifications/prompts/list_changed", null)))
                .resourcesChangeConsumer(t -> tell.apply(new Notification("notifications/resources/list_changed", null)))
                .resourcesUpdateConsumer(rs -> reactor.core.publisher.Flux.fromIterable(rs)
                        .concatMap(r -> tell.apply(new Notification("notifications/resources/updated", Json.object().put("uri", r.uri())))).then())
                .build();
        McpConnection c = new McpConnection(client, tracking, stdioServer, timeout, out, what);
        self[0] = c;
        try {
            reactor.core.publisher.Mono.firstWithSignal(client.initialize(), c.exited.asMono()
                    .then(reactor.core.publisher.Mono.error(new IllegalStateException("the process exited")))).block(startup);
        } catch (RuntimeException e) {
            // Writing to a program that has already exited fails ("Stream closed") a moment before its exit is seen:
            // an exit that follows at once is the reason.
            String why = stdioServer != null && c.exitsWithin(Duration.ofSeconds(2)) ? "the process exited" : reason(e);
            c.close();
            throw new InfrastructureException(what + " did not start: " + why + c.stderrTail() + " (log: " + log + ")", e);
        }
        return c;
    }

    /**
     * The SDK's transport, noting the JSON-RPC id of each {@code tools/call} it sends: the SDK client gives no way to
     * cancel a request, so {@link #cancelCall} sends {@code notifications/cancelled} with that id through the transport.
     */
    private record Tracking(McpClientTransport inner, McpConnection[] owner) implements McpClientTransport {
        @Override
        public reactor.core.publisher.Mono<Void> connect(java.util.function.Function<reactor.core.publisher.Mono<McpSchema.JSONRPCMessage>,
                reactor.core.publisher.Mono<McpSchema.JSONRPCMessage>> handler) {
            return inner.connect(handler);
        }

        @Override
        public reactor.core.publisher.Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            McpConnection c = owner[0];
            if (c != null && message instanceof McpSchema.JSONRPCRequest r && r.method().equals(McpSchema.METHOD_TOOLS_CALL)) c.callId = r.id();
            return inner.sendMessage(message);
        }

        @Override
        public void setExceptionHandler(java.util.function.Consumer<Throwable> handler) { inner.setExceptionHandler(handler); }

        @Override
        public List<String> protocolVersions() { return inner.protocolVersions(); }

        @Override
        public <T> T unmarshalFrom(Object data, io.modelcontextprotocol.json.TypeRef<T> type) { return inner.unmarshalFrom(data, type); }

        @Override
        public reactor.core.publisher.Mono<Void> closeGracefully() { return inner.closeGracefully(); }

        @Override
        public void close() { inner.close(); }
    }

    /**
     * Cancels the tool call in flight, if any: the server is sent {@code notifications/cancelled} with the call's
     * request id (and {@code reason}), and the waiting {@link #call} returns at once with {@link #CANCELLED} as an
     * error result. False when no call is in flight.
     */
    public boolean cancelCall(String reason) {
        reactor.core.publisher.Sinks.Empty<Void> cancel = callCancelled;
        if (cancel == null) return false;
        Object id = callId;
        if (id != null) {
            Map<String, Object> params = new java.util.LinkedHashMap<>();
            params.put("requestId", id);
            if (reason != null) params.put("reason", reason);
            transport.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled", params))
                    .onErrorResume(e -> reactor.core.publisher.Mono.empty()).subscribe();
        }
        cancel.tryEmitEmpty();
        return true;
    }

    /** The text of a tool call's result when it was cancelled ({@link #cancelCall}). */
    public static final String CANCELLED = "the request was cancelled";

    /** {@code request} or, when the server process exits first, an error at once. */
    private <T> T await(reactor.core.publisher.Mono<T> request) {
        return reactor.core.publisher.Mono.firstWithSignal(request,
                exited.asMono().then(reactor.core.publisher.Mono.<T>error(new IllegalStateException("the server process exited")))).block(timeout);
    }

    private static JsonNode tree(Object mcpValue) {
        try {
            return Json.parse(MCP_JSON.writeValueAsString(mcpValue));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A request's params as the SDK's type: params that do not fit are -32602 with what {@code method} takes (the
     * mapper's own message names the SDK's classes and quotes the input: it is not passed on).
     */
    private static <T> T fromTree(String method, JsonNode params, Class<T> type) {
        try {
            return MCP_JSON.readValue(Json.write(params == null || params.isNull() ? Json.object() : params), type);
        } catch (IOException | RuntimeException e) {
            throw new RemoteError(McpSchema.ErrorCodes.INVALID_PARAMS, "invalid params for " + method + ": it takes " + SHAPES.get(method));
        }
    }

    /** What each forwarded request with params of its own takes, for the message when they do not fit. */
    private static final Map<String, String> SHAPES = Map.of(
            "prompts/get", "{name: string, arguments?: {string: string}}",
            "resources/read", "{uri: string}",
            "resources/subscribe", "{uri: string}",
            "resources/unsubscribe", "{uri: string}",
            "completion/complete", "{ref: {type: \"ref/prompt\", name: string} or {type: \"ref/resource\", uri: string}, "
                    + "argument: {name: string, value: string}, context?: {arguments?: {string: string}}}");

    /** The capability a forwarded request needs the server to have declared in its initialize result (null: none). */
    private static String capabilityOf(String method) {
        if (method.startsWith("prompts/")) return "prompts";
        if (method.startsWith("resources/")) return "resources";
        if (method.equals("completion/complete")) return "completions";
        if (method.equals("logging/setLevel")) return "logging";
        return null;
    }

    /** The MCP methods {@link #request} passes on to the server (the ones the server answers besides tools). */
    public static final java.util.Set<String> FORWARDED = java.util.Set.of("prompts/list", "prompts/get", "resources/list", "resources/read",
            "resources/templates/list", "resources/subscribe", "resources/unsubscribe", "completion/complete", "logging/setLevel", "ping");

    /** What the server said it can do, as its initialize result's capabilities. */
    public JsonNode capabilities() {
        McpSchema.ServerCapabilities caps = client.getServerCapabilities();
        return caps == null ? Json.object() : tree(caps);
    }

    /** The server's instructions from initialize, or null. */
    public String instructions() { return client.getServerInstructions(); }

    /**
     * Passes one request of {@link #FORWARDED} on to the server and returns its result as the server gave it.
     *
     * @throws RemoteError when the server answered with a JSON-RPC error (or the params do not parse)
     * @throws InfrastructureException when the server crashed, hung or timed out
     */
    public JsonNode request(String method, JsonNode params) {
        String capability = capabilityOf(method);
        if (capability != null && !capabilities().hasNonNull(capability)) {
            // As a server without the capability answers it; the SDK client would refuse it before sending, as a failure.
            throw new RemoteError(McpSchema.ErrorCodes.METHOD_NOT_FOUND, "method not found: " + method + " (the server offers no " + capability + ")");
        }
        if (method.equals("resources/subscribe") || method.equals("resources/unsubscribe")) {
            if (!capabilities().path("resources").path("subscribe").asBoolean(false)) {
                throw new RemoteError(McpSchema.ErrorCodes.METHOD_NOT_FOUND, "method not found: " + method + " (the server offers no resource subscriptions)");
            }
        }
        String cursor = params == null ? null : params.path("cursor").asText(null);
        reactor.core.publisher.Mono<?> answer = switch (method) {
            case "prompts/list" -> client.listPrompts(cursor);
            case "prompts/get" -> client.getPrompt(fromTree(method, params, McpSchema.GetPromptRequest.class));
            case "resources/list" -> client.listResources(cursor);
            case "resources/read" -> client.readResource(fromTree(method, params, McpSchema.ReadResourceRequest.class));
            case "resources/templates/list" -> client.listResourceTemplates(cursor);
            case "resources/subscribe" -> client.subscribeResource(fromTree(method, params, McpSchema.SubscribeRequest.class));
            case "resources/unsubscribe" -> client.unsubscribeResource(fromTree(method, params, McpSchema.UnsubscribeRequest.class));
            case "completion/complete" -> client.completeCompletion(fromTree(method, params, McpSchema.CompleteRequest.class));
            case "logging/setLevel" -> client.setLoggingLevel(level(params));
            case "ping" -> client.ping();
            default -> throw new RemoteError(McpSchema.ErrorCodes.METHOD_NOT_FOUND, "method not found: " + method);
        };
        Object result;
        try {
            result = await(answer);
        } catch (McpError e) {
            McpSchema.JSONRPCResponse.JSONRPCError err = e.getJsonRpcError();
            throw new RemoteError(err == null ? McpSchema.ErrorCodes.INTERNAL_ERROR : err.code(), err == null ? reason(e) : err.message());
        } catch (RuntimeException e) {
            throw new InfrastructureException(what + " failed on " + method + ": " + reason(e) + stderrTail(), e);
        }
        return result == null ? Json.object() : tree(result);
    }

    private static McpSchema.LoggingLevel level(JsonNode params) {
        String level = params == null ? "" : params.path("level").asText("");
        for (McpSchema.LoggingLevel l : McpSchema.LoggingLevel.values()) {
            if (l.name().equalsIgnoreCase(level)) return l;
        }
        throw new RemoteError(McpSchema.ErrorCodes.INVALID_PARAMS, "logging/setLevel needs params.level, one of debug, info, notice, warning, error, critical, alert, emergency");
    }

    /** Why a program cannot be run (null when it can): a path that is not an executable file, or a name not on PATH. */
    public static String missingProgram(String program) {
        if (program.contains("/")) {
            Path p = Path.of(program);
            if (!Files.exists(p)) return "no such file (for the examples, run `npm ci --prefix examples/mcp-servers` first)";
            return Files.isExecutable(p) ? null : "not executable";
        }
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return null;
        }
        return "not found on PATH";
    }

    private synchronized void remember(String line) {
        tail.addLast(line);
        if (tail.size() > STDERR_TAIL) tail.removeFirst();
    }

    private synchronized String stderrTail() {
        return tail.isEmpty() ? "" : "; its stderr ends: " + String.join(" | ", tail);
    }

    /** The server's tools, every page. */
    public List<McpSchema.Tool> tools() {
        try {
            List<McpSchema.Tool> all = new java.util.ArrayList<>();
            String cursor = null;
            do {
                McpSchema.ListToolsResult page = await(cursor == null ? client.listTools() : client.listTools(cursor));
                all.addAll(page.tools());
                cursor = page.nextCursor();
            } while (cursor != null && !cursor.isEmpty());
            return all;
        } catch (RuntimeException e) {
            throw new InfrastructureException(what + " failed to list its tools: " + reason(e) + stderrTail(), e);
        }
    }

    /** Calls one tool. A protocol-level refusal (unknown tool, invalid params) comes back as an error result too. */
    public Result call(String tool, ObjectNode args) {
        return call(tool, args, null);
    }

    /** As {@link #call(String, ObjectNode)} with the request's {@code _meta} (a client's progress token, passed on). */
    public Result call(String tool, ObjectNode args, Map<String, Object> meta) {
        McpSchema.CallToolResult r;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = Json.MAPPER.convertValue(args, Map.class);
            reactor.core.publisher.Sinks.Empty<Void> cancel = reactor.core.publisher.Sinks.empty();
            callId = null;
            callCancelled = cancel;
            try {
                r = await(reactor.core.publisher.Mono.firstWithSignal(client.callTool(new McpSchema.CallToolRequest(tool, arguments, meta)),
                        cancel.asMono().then(reactor.core.publisher.Mono.<McpSchema.CallToolResult>empty())));
            } finally {
                callCancelled = null;
                callId = null;
            }
            if (r == null) return new Result(CANCELLED, true);
        } catch (McpError e) {
            return new Result(reason(e), true);
        } catch (RuntimeException e) {
            throw new InfrastructureException(what + " failed on " + tool + ": " + reason(e) + stderrTail(), e);
        }
        StringBuilder text = new StringBuilder();
        for (McpSchema.Content c : r.content()) {
            if (c instanceof McpSchema.TextContent t) {
                if (!text.isEmpty()) text.append('\n');
                text.append(t.text());
            }
        }
        if (text.isEmpty() && r.structuredContent() != null) text.append(Json.write(Json.MAPPER.valueToTree(r.structuredContent())));
        return new Result(text.toString(), Boolean.TRUE.equals(r.isError()));
    }

    /** A result's text as a value: the JSON it holds when it is a JSON object or array, else the text. */
    public static JsonNode value(String text) {
        String t = text.strip();
        if (t.startsWith("{") || t.startsWith("[")) {
            try {
                return Json.MAPPER.readTree(t);
            } catch (IOException notJson) {
                // prose that starts with a bracket
            }
        }
        return Json.MAPPER.getNodeFactory().textNode(text);
    }

    /** Whether the server's process has exited, or exits within {@code wait}. */
    private boolean exitsWithin(Duration wait) {
        try {
            exited.asMono().block(wait);
            return true;
        } catch (RuntimeException stillRunning) {
            return false;
        }
    }

    static String reason(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof java.util.concurrent.TimeoutException || String.valueOf(c.getMessage()).startsWith("Did not observe any item")
                    || String.valueOf(c.getMessage()).startsWith("Timeout on blocking read")) {
                return "no answer in time (a hung or crashed server)";
            }
        }
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        String m = root.getMessage() != null ? root.getMessage() : e.getMessage();
        return m == null ? root.getClass().getSimpleName() : m;
    }

    /** The server process and the processes it started (empty over HTTP, or once it stopped). */
    public List<ProcessHandle> processes() { return stdio == null ? List.of() : stdio.processes(); }

    @Override
    public void close() {
        try {
            client.close();
        } catch (RuntimeException ignored) {
            // the server is already gone
        }
        if (stdio != null) stdio.close();   // the whole process tree, even when the client's close did not get that far
        log.close();
    }
}
