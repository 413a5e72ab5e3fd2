package dev.openagent.byo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.InfrastructureException;
import dev.openagent.json.Json;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
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
    /** The least time a server gets to start: many node processes starting at once on a busy machine are slow. */
    private static final Duration STARTUP = Duration.ofSeconds(60);

    private final McpAsyncClient client;
    private final Duration timeout;
    private final PrintWriter log;
    private final Deque<String> tail = new ArrayDeque<>();
    private final String what;

    /** A tool's answer: its text (the text contents joined) and whether the tool reported an error. */
    public record Result(String text, boolean error) {}

    private McpConnection(McpAsyncClient client, Duration timeout, PrintWriter log, String what) {
        this.client = client;
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
        PrintWriter out;
        try {
            Files.createDirectories(log.getParent());
            out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND), true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the server log " + log + ": " + e.getMessage(), e);
        }
        McpClientTransport transport;
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
            ServerParameters params = ServerParameters.builder(command.getFirst()).args(command.subList(1, command.size())).env(env).build();
            StdioClientTransport stdio = new StdioClientTransport(params, McpJsonDefaults.getMapper());
            stdio.setStdErrorHandler(line -> {
                out.println(line);
                McpConnection c = self[0];
                if (c != null) c.remember(line);
            });
            transport = stdio;
            what = "MCP server '" + String.join(" ", command) + "'";
        }
        // Requests may take up to STARTUP inside the SDK; each call below waits at most `timeout` (the initialisation, STARTUP).
        Duration startup = STARTUP.compareTo(timeout) > 0 ? STARTUP : timeout;
        McpAsyncClient client = McpClient.async(transport).requestTimeout(startup).initializationTimeout(startup)
                .clientInfo(new McpSchema.Implementation("openagent", "0.1.0")).build();
        McpConnection c = new McpConnection(client, timeout, out, what);
        self[0] = c;
        try {
            client.initialize().block(startup);
        } catch (RuntimeException e) {
            c.close();
            throw new InfrastructureException(what + " did not start: " + reason(e) + c.stderrTail() + " (log: " + log + ")", e);
        }
        return c;
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
                McpSchema.ListToolsResult page = (cursor == null ? client.listTools() : client.listTools(cursor)).block(timeout);
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
        McpSchema.CallToolResult r;
        try {
            @SuppressWarnings("unchecked")
            Map<String, Object> arguments = Json.MAPPER.convertValue(args, Map.class);
            r = client.callTool(new McpSchema.CallToolRequest(tool, arguments)).block(timeout);
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

    @Override
    public void close() {
        try {
            client.close();
        } catch (RuntimeException ignored) {
            // the server is already gone
        }
        log.close();
    }
}
