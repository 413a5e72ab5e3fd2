package dev.openagent.byo;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The MCP client transport to a server process over stdio, in place of the SDK's {@code StdioClientTransport}, which
 * stops reading at the first stdout line that is not JSON-RPC (every answer after it is lost) and stops only the
 * process it started, not the processes that one started ({@code npx}, {@code sh -c}). Here a stray line is skipped
 * and reported, the whole process tree is stopped on close (forcibly after a short grace), and the owner is told
 * at once when the process exits.
 */
final class StdioServer implements McpClientTransport {
    /** The longest stdout line read as a message; a longer one is skipped (a server gone wrong, not a message). */
    static final int MAX_LINE_CHARS = 64 << 20;
    private static final long GRACE_MILLIS = 2_000;

    private final List<String> command;
    private final Map<String, String> env;
    private final McpJsonMapper json;
    private final Consumer<String> stderr;
    private final Consumer<String> skipped;
    private final Runnable exited;
    private final Sinks.Many<McpSchema.JSONRPCMessage> inbound = Sinks.many().unicast().onBackpressureBuffer();
    /** The process once started: messages the client sends before that wait for it. */
    private final java.util.concurrent.CompletableFuture<Process> started = new java.util.concurrent.CompletableFuture<>();
    private volatile Process process;
    private volatile boolean closing;

    /**
     * @param stderr  told each line the server writes on stderr
     * @param skipped told each stdout line that is not a JSON-RPC message (skipped)
     * @param exited  run once when the process exits
     */
    StdioServer(List<String> command, Map<String, String> env, McpJsonMapper json, Consumer<String> stderr, Consumer<String> skipped, Runnable exited) {
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.json = json;
        this.stderr = stderr;
        this.skipped = skipped;
        this.exited = exited;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.<Void>fromRunnable(() -> {
            inbound.asFlux().flatMap(m -> Mono.just(m).transform(handler)).subscribe();
            ProcessBuilder pb = new ProcessBuilder(command);
            pb.environment().putAll(env);
            Process p;
            try {
                p = pb.start();
            } catch (IOException e) {
                UncheckedIOException failed = new UncheckedIOException("cannot start " + command.getFirst() + ": " + e.getMessage(), e);
                started.completeExceptionally(failed);
                throw failed;
            }
            process = p;
            Thread.ofPlatform().daemon().name("mcp-server-stdout").start(() -> readMessages(p));
            Thread.ofPlatform().daemon().name("mcp-server-stderr").start(() -> readLines(p));
            // A thread of its own waits for the exit: Process.onExit() completes on the common fork-join pool, which a
            // caller blocked on this server (a tool call) may be holding (its only worker on a two-core machine).
            Thread.ofPlatform().daemon().name("mcp-server-exit").start(() -> {
                try {
                    p.waitFor();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                exited.run();
            });
            started.complete(p);
        }).subscribeOn(Schedulers.boundedElastic());
    }

    private void readMessages(Process p) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            StringBuilder line = new StringBuilder();
            boolean tooLong = false;
            for (int c = in.read(); c != -1; c = in.read()) {
                if (c != '\n') {
                    if (line.length() < MAX_LINE_CHARS) line.append((char) c);
                    else tooLong = true;
                    continue;
                }
                if (tooLong) skipped.accept(line.substring(0, 200) + "... (over " + MAX_LINE_CHARS + " characters)");
                else deliver(line.toString());
                line.setLength(0);
                tooLong = false;
            }
        } catch (IOException e) {
            // the process closed its stdout (it exited, or is being stopped)
        } finally {
            inbound.tryEmitComplete();
        }
    }

    private void deliver(String line) {
        if (line.isBlank()) return;
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | RuntimeException notJsonRpc) {
            skipped.accept(line);
            return;
        }
        inbound.emitNext(message, Sinks.EmitFailureHandler.busyLooping(java.time.Duration.ofMillis(100)));
    }

    private void readLines(Process p) {
        try (BufferedReader err = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = err.readLine(); line != null; line = err.readLine()) stderr.accept(line);
        } catch (IOException e) {
            // the process is gone
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromFuture(started).doOnNext(p -> {
            if (closing) throw new IllegalStateException("the server process is stopping");
            try {
                // Jackson escapes line breaks inside strings: one message is one line.
                byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
                OutputStream out = p.getOutputStream();
                synchronized (out) {
                    out.write(line);
                    out.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write to the server process: " + e.getMessage(), e);
            }
        }).then();
    }

    /** The server process and the processes it started, while it runs (empty before it starts and after it stops). */
    List<ProcessHandle> processes() {
        Process p = process;
        if (p == null || !p.isAlive()) return List.of();
        return Stream.concat(Stream.of(p.toHandle()), p.descendants()).toList();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.<Void>fromRunnable(this::stop).subscribeOn(Schedulers.boundedElastic());
    }

    @Override
    public void close() {
        stop();
    }

    /**
     * Stops the process and every process it started: each is asked to end (SIGTERM), and those still running after
     * a short grace are killed. The descendants are collected first: once their parent is gone they are no longer its.
     */
    private void stop() {
        closing = true;
        Process p = process;
        inbound.tryEmitComplete();
        started.completeExceptionally(new IllegalStateException("the server process was stopped before it started"));
        if (p == null) return;
        List<ProcessHandle> tree = new ArrayList<>(p.descendants().toList());
        tree.addFirst(p.toHandle());
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // already closed
        }
        tree.forEach(ProcessHandle::destroy);
        // Polled, not ProcessHandle.onExit(): that completes on the common fork-join pool, which may be busy.
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        while (tree.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < until) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
        return json.convertValue(data, type);
    }
}
