package dev.openagent.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.UserInputException;
import dev.openagent.byo.McpConnection;
import dev.openagent.episode.InfrastructureException;
import io.modelcontextprotocol.spec.McpSchema;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The real MCP server behind the proxy: a command started over stdio or a Streamable HTTP endpoint. When it
 * crashes, hangs or times out, the failing call raises {@link InfrastructureException} and the next call starts
 * (or reconnects) it again. Thread-safe: calls are serialised, as one stdio session answers them in order anyway.
 */
public final class Upstream implements AutoCloseable {
    private final List<String> command;
    private final String url;
    private final Duration timeout;
    private final Path log;
    private final List<Consumer<McpConnection.Notification>> listeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Seen>> watchers = new CopyOnWriteArrayList<>();

    /**
     * What went to the upstream and came back, for the watch (docs/watch.md): a tool list, or a tool call with its
     * result text (null when the upstream failed under it) and how long it took.
     */
    public sealed interface Seen {
        record Listed(List<McpSchema.Tool> tools) implements Seen {}

        record Called(String tool, String text, boolean error, long nanos, String failure) implements Seen {}
    }
    private volatile McpConnection connection;
    private int starts;

    /** Either {@code command} (stdio) or {@code url} (Streamable HTTP). Starts it now: a server that cannot start fails here. */
    public Upstream(List<String> command, String url, Duration timeout, Path log) {
        if ((command == null || command.isEmpty()) == (url == null)) throw new UserInputException("give an upstream command or --upstream URL, not both");
        this.command = command == null ? null : List.copyOf(command);
        this.url = url;
        this.timeout = timeout;
        this.log = log;
        connect();
    }

    private McpConnection connect() {
        if (connection == null) {
            connection = McpConnection.open(command, url, Map.of(), timeout, log, n -> listeners.forEach(l -> l.accept(n)));
            starts++;
        }
        return connection;
    }

    /** What the upstream is, for messages. */
    public String describe() { return url != null ? url : String.join(" ", command); }

    /** How many times the upstream was started (1 until it crashed once). */
    public synchronized int starts() { return starts; }

    public synchronized List<McpSchema.Tool> tools() {
        try {
            List<McpSchema.Tool> tools = connect().tools();
            Seen.Listed seen = new Seen.Listed(tools);
            watchers.forEach(w -> w.accept(seen));
            return tools;
        } catch (InfrastructureException e) {
            drop();
            throw e;
        }
    }

    /** Calls one upstream tool by its real name; a server failure drops the session so the next call restarts it. */
    public synchronized McpConnection.Result call(String tool, ObjectNode args) {
        long begin = System.nanoTime();
        try {
            McpConnection.Result r = connect().call(tool, args, meta.get());
            if (!watchers.isEmpty()) {
                Seen.Called seen = new Seen.Called(tool, r.text(), r.error(), System.nanoTime() - begin, null);
                watchers.forEach(w -> w.accept(seen));
            }
            return r;
        } catch (InfrastructureException e) {
            drop();
            Seen.Called seen = new Seen.Called(tool, null, true, System.nanoTime() - begin, e.getMessage());
            watchers.forEach(w -> w.accept(seen));
            throw e;
        }
    }

    /** Tells {@code watcher} every tool list and tool call that goes to the upstream, on the calling thread. */
    public void watch(Consumer<Seen> watcher) { watchers.add(watcher); }

    /**
     * Cancels the tool call in flight (not waiting for it: calls are serialised, and this is how one ends early):
     * the upstream is sent {@code notifications/cancelled} with its request id, and the call returns
     * {@link McpConnection#CANCELLED}. False when no call is in flight.
     */
    public boolean cancelCall(String reason) {
        McpConnection c = connection;
        return c != null && c.cancelCall(reason);
    }

    /** The {@code _meta} of the client's call being made on this thread (its progress token), passed on with the upstream call. */
    final ThreadLocal<Map<String, Object>> meta = new ThreadLocal<>();

    /** Tells {@code listener} every notification the upstream sends (logging, progress, list and resource changes). */
    public void onNotification(Consumer<McpConnection.Notification> listener) { listeners.add(listener); }

    public void removeListener(Consumer<McpConnection.Notification> listener) { listeners.remove(listener); }

    /**
     * Passes a request the proxy does not shift ({@link McpConnection#FORWARDED}) on to the upstream, unchanged.
     * Not serialised with tool calls beyond the connection's own ordering: a prompt or a resource read is answered
     * while a slow tool call runs.
     */
    public JsonNode request(String method, JsonNode params) {
        McpConnection c;
        synchronized (this) {
            c = connect();
        }
        try {
            return c.request(method, params);
        } catch (InfrastructureException e) {
            synchronized (this) {
                if (connection == c) drop();
            }
            throw e;
        }
    }

    /**
     * Stops the upstream when it holds files under {@code dir} open (the next request starts it again), so that
     * refilling the folder does not replace a file under an open handle.
     *
     * @return the files it held open (empty: it was left running)
     */
    public synchronized List<String> releaseFiles(Path dir) {
        if (connection == null) return List.of();
        List<String> held = dev.openagent.byo.OpenFiles.under(connection.processes(), dir);
        if (!held.isEmpty()) drop();
        return held;
    }

    /** The upstream's capabilities and instructions from its initialize result. */
    public synchronized JsonNode capabilities() { return connect().capabilities(); }

    public synchronized String instructions() { return connect().instructions(); }

    private void drop() {
        if (connection != null) connection.close();
        connection = null;
    }

    @Override
    public synchronized void close() { drop(); }
}
