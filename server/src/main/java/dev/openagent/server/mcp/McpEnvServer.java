package dev.openagent.server.mcp;

import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.EnvChoice;
import dev.openagent.server.EpisodeSink;
import dev.openagent.server.TaskChoice;
import dev.openagent.server.http.BearerAuth;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * {@code openagent serve mcp}: the {@link McpEpisodeHost}'s tools, a {@code task} prompt and an
 * {@code openagent://task} resource, served with the official MCP Java SDK over stdio (a session
 * server that notifies the client when a new episode brings a different tool list) or over
 * stateless Streamable HTTP (clients list tools again after each episode).
 */
public final class McpEnvServer implements AutoCloseable {
    public static final String NAME = "openagent";
    public static final String VERSION = "0.1.0";
    static final String TASK_PROMPT = "task";
    static final String TASK_URI = "openagent://task";
    private static final String INSTRUCTIONS = "An OpenAgent environment. Call " + McpEpisodeHost.GET_TASK
            + " to read the task, use the other tools to complete it, and end the episode with "
            + McpEpisodeHost.SUBMIT + " or " + McpEpisodeHost.REFUSE + ", which return the score.";

    /** What the server is configured to run. */
    public record Options(EnvChoice choice, TaskChoice tasks, int firstIndex, Long seed, EpisodeSink sink) {}

    private final McpEpisodeHost host;
    private final McpServing serving;

    private McpEnvServer(McpEpisodeHost host, McpServing serving) {
        this.host = host;
        this.serving = serving;
    }

    /** Serves over stdin/stdout; {@link #awaitInputClosed()} returns when the client closes stdin. */
    public static McpEnvServer stdio(Options o, InputStream in, OutputStream out) {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        CountDownLatch eof = new CountDownLatch(1);
        Registry<McpServerFeatures.SyncToolSpecification> registry = new Registry<>((h, t) ->
                McpServerFeatures.SyncToolSpecification.builder().tool(tool(t))
                        .callHandler((ex, req) -> call(h, req, ex.getClientInfo() == null ? null : ex.getClientInfo().name())).build());
        McpEpisodeHost host = new McpEpisodeHost(o.choice(), o.tasks(), o.firstIndex(), o.seed(), o.sink(), registry::replace);
        StdioGate gate = new StdioGate(in, out, eof);
        var transport = new StdioServerTransportProvider(mapper, gate.input, gate.output);
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo(NAME, VERSION)
                .instructions(INSTRUCTIONS)
                .jsonMapper(mapper)
                .validateToolInputs(false)          // bad arguments are the environment's to judge and count
                .strictToolNameValidation(false)    // shifted names may use characters the SDK's check rejects
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).prompts(false).resources(false, false).build())
                .tools(registry.initial(host))
                .prompts(new McpServerFeatures.SyncPromptSpecification(taskPrompt(), (ex, req) -> taskPromptResult(host)))
                .resources(new McpServerFeatures.SyncResourceSpecification(taskResource(), (ex, req) -> taskResourceResult(host)))
                .build();
        registry.bind(server::addTool, server::removeTool, server::notifyToolsListChanged);
        return new McpEnvServer(host, McpServing.stdio(server::closeGracefully, eof));
    }

    /** Serves stateless Streamable HTTP at {@code http://host:port/mcp}. */
    public static McpEnvServer http(Options o, String bindHost, int port, BearerAuth auth, long maxBodyBytes) throws IOException {
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        Registry<McpStatelessServerFeatures.SyncToolSpecification> registry = new Registry<>((h, t) ->
                McpStatelessServerFeatures.SyncToolSpecification.builder().tool(tool(t)).callHandler((ctx, req) -> call(h, req, null)).build());
        McpEpisodeHost host = new McpEpisodeHost(o.choice(), o.tasks(), o.firstIndex(), o.seed(), o.sink(), registry::replace);
        StatelessHttpTransport transport = new StatelessHttpTransport(mapper, maxBodyBytes);
        McpStatelessSyncServer server = McpServer.sync(transport)
                .serverInfo(NAME, VERSION)
                .instructions(INSTRUCTIONS + " This server is stateless: list the tools again after each episode.")
                .jsonMapper(mapper)
                .validateToolInputs(false)
                .strictToolNameValidation(false)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).prompts(false).resources(false, false).build())
                .tools(registry.initial(host))
                .prompts(new McpStatelessServerFeatures.SyncPromptSpecification(taskPrompt(), (ctx, req) -> taskPromptResult(host)))
                .resources(new McpStatelessServerFeatures.SyncResourceSpecification(taskResource(), (ctx, req) -> taskResourceResult(host)))
                .build();
        registry.bind(server::addTool, server::removeTool, () -> {});   // stateless: no channel to notify on
        return new McpEnvServer(host, McpServing.http(transport, bindHost, port, auth, "serve-mcp", server::closeGracefully, server::close));
    }

    public McpEpisodeHost host() { return host; }

    /** The HTTP port, or -1 for stdio. */
    public int port() { return serving.port(); }

    public String url() { return serving.url(); }

    /** Blocks until stdin reaches its end (stdio servers) or {@link #close()} is called. */
    public void awaitInputClosed() throws InterruptedException {
        serving.awaitInputClosed();
        if (!serving.closed()) host.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(5));
    }

    /** Stops serving and closes the episode sink. Idempotent. */
    @Override
    public void close() { serving.close(); }

    // ---- the task as a prompt and a resource ----

    private static McpSchema.Prompt taskPrompt() {
        return McpSchema.Prompt.builder(TASK_PROMPT).description("The current task: the instructions and the user's request.").build();
    }

    private static McpSchema.GetPromptResult taskPromptResult(McpEpisodeHost host) {
        McpSchema.Content text = McpSchema.TextContent.builder(host.taskText()).build();
        return McpSchema.GetPromptResult.builder(List.of(McpSchema.PromptMessage.builder(McpSchema.Role.USER, text).build()))
                .description("The current OpenAgent task").build();
    }

    private static McpSchema.Resource taskResource() {
        return McpSchema.Resource.builder(TASK_URI, "task").mimeType("text/plain")
                .description("The current task: the instructions and the user's request.").build();
    }

    private static McpSchema.ReadResourceResult taskResourceResult(McpEpisodeHost host) {
        return McpSchema.ReadResourceResult.builder(List.of(
                McpSchema.TextResourceContents.builder(TASK_URI, host.taskText()).mimeType("text/plain").build())).build();
    }

    // ---- tools ----

    /** A tool as the MCP SDK lists it (also the shift proxy's). */
    public static McpSchema.Tool tool(ToolSpec spec) {
        @SuppressWarnings("unchecked")
        Map<String, Object> schema = Json.MAPPER.convertValue(spec.parameters(), Map.class);
        return McpSchema.Tool.builder(spec.name(), schema).description(spec.description()).build();
    }

    static McpSchema.CallToolResult call(McpEpisodeHost host, McpSchema.CallToolRequest request, String client) {
        ToolReply reply = host.call(request.name(), request.arguments(), client);
        return McpSchema.CallToolResult.builder().addTextContent(reply.text()).isError(reply.error()).build();
    }

    /**
     * Keeps the SDK's registered tools equal to the host's list, for either kind of SDK server
     * (their tool specifications are different types, hence {@code S} and the functions). The host
     * exists before the SDK server (which is built from the host's first tools), so the server's
     * operations are bound afterwards.
     */
    private static final class Registry<S> {
        private final BiFunction<McpEpisodeHost, ToolSpec, S> specOf;
        private McpEpisodeHost host;
        private List<String> registered = List.of();
        private Consumer<S> add;
        private Consumer<String> remove;
        private Runnable notifyChanged;

        Registry(BiFunction<McpEpisodeHost, ToolSpec, S> specOf) {
            this.specOf = specOf;
        }

        List<S> initial(McpEpisodeHost h) {
            host = h;
            registered = h.tools().stream().map(ToolSpec::name).toList();
            return h.tools().stream().map(t -> specOf.apply(h, t)).toList();
        }

        void bind(Consumer<S> addTool, Consumer<String> removeTool, Runnable notifyToolsChanged) {
            add = addTool;
            remove = removeTool;
            notifyChanged = notifyToolsChanged;
        }

        /** Called by the host (under its lock) when a new episode shows a different tool list. */
        void replace(List<ToolSpec> tools) {
            if (add == null) return;
            registered.forEach(remove);
            tools.forEach(t -> add.accept(specOf.apply(host, t)));
            registered = tools.stream().map(ToolSpec::name).toList();
            notifyChanged.run();
        }
    }
}
