package dev.openagent.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.openagent.registry.Environments;
import dev.openagent.json.Json;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scripted "model" behind an OpenAI-compatible endpoint on 127.0.0.1, for end-to-end tests of
 * the harness: it recognises the episode by its user query (it enumerates the same task plan as
 * the experiment), replays the episode so far in a private copy of the environment, and answers
 * with its policy's next move. Most episodes follow the environment's guide (the oracle); a
 * deterministic share make the mistakes the failure taxonomy names: a hallucinated tool, malformed
 * arguments, a premature answer, a false refusal, a loop, a wrong final answer. It speaks both the
 * native tool protocol and the text protocol (when the request carries no {@code tools}).
 * <p>
 * Run it by hand for end-to-end checks of the CLI:
 * {@code java -cp ... dev.openagent.fake.ScriptedModel --env poi --shift all --tasks 50 --seed 1}.
 */
public final class ScriptedModel implements AutoCloseable {
    /** How the model behaves on an episode. */
    public enum Behaviour { ORACLE, HALLUCINATE_FIRST, BAD_ARGUMENTS_FIRST, PREMATURE, REFUSE, LOOP, WRONG_ANSWER }

    private record Episode(Environment environment, ShiftStack stack, TaskRequest request) {}

    private final Map<String, Episode> byQuery = new HashMap<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicLong requests = new AtomicLong();
    private final double failureRate;
    private final boolean flawless;
    private volatile long delayMillis;
    /** The gate (see {@link #holdAfter}): how many more requests it answers (-1: all), and how many wait at it. */
    private final Object gate = new Object();
    private long allowance = -1;
    private int held;

    /**
     * @param failureRate share of requests answered with an HTTP 500 or a dropped connection (retried by the client)
     * @param flawless    every episode follows the oracle
     */
    public ScriptedModel(List<String> envs, String shiftSpec, TaskPlan plan, double failureRate, boolean flawless) throws IOException {
        this.failureRate = failureRate;
        this.flawless = flawless;
        List<ShiftStack> stacks = new ArrayList<>();
        stacks.add(ShiftStack.NONE);
        stacks.addAll(ShiftSpec.expand(shiftSpec));
        for (String id : envs) {
            Environment environment = Environments.get(id);
            for (ShiftStack stack : stacks) {
                if (stack.notApplicable(environment.info()).isPresent()) continue;
                Env env = stack.apply(environment.create());
                for (TaskRequest r : plan.requests()) byQuery.putIfAbsent(env.reset(r).query(), new Episode(environment, stack, r));
            }
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", this::handle);
        server.start();
    }

    /** Answers every request only after this long, as a real model would (so a test can stop a run midway). */
    public ScriptedModel delay(java.time.Duration d) {
        delayMillis = d.toMillis();
        return this;
    }

    /**
     * Answers {@code answers} more requests, then holds every further one (unanswered, its client waiting) until
     * {@link #release()}: a test can stop a run midway whatever the machine's speed.
     */
    public ScriptedModel holdAfter(long answers) {
        synchronized (gate) {
            allowance = answers;
        }
        return this;
    }

    /** Answers every request again, the held ones first. */
    public void release() {
        synchronized (gate) {
            allowance = -1;
            gate.notifyAll();
        }
    }

    /** Waits until a request is held at the gate; false when none is within {@code max}. */
    public boolean awaitHeld(java.time.Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (gate) {
            while (held == 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) return false;
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(gate, left);
            }
            return true;
        }
    }

    private void pass() throws InterruptedException {
        synchronized (gate) {
            if (allowance != 0) {
                if (allowance > 0) allowance--;
                return;
            }
            held++;
            gate.notifyAll();
            try {
                while (allowance == 0) gate.wait();
                if (allowance > 0) allowance--;
            } finally {
                held--;
            }
        }
    }

    public String baseUrl() { return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1"; }

    public long requests() { return requests.get(); }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            byte[] in;
            try (InputStream s = ex.getRequestBody()) {
                in = s.readAllBytes();
            }
            long n = requests.incrementAndGet();
            try {
                pass();
                if (delayMillis > 0) Thread.sleep(delayMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            if (failureRate > 0) {
                double u = (Seeds.mix(n, 0xFA11) >>> 11) * 0x1.0p-53;
                if (u < failureRate / 2) throw new IOException("scripted model drops the connection");
                if (u < failureRate) {
                    send(ex, 500, "{\"error\":{\"message\":\"scripted failure\"}}");
                    return;
                }
            }
            JsonNode body = Json.parse(new String(in, StandardCharsets.UTF_8));
            send(ex, 200, reply(body));
        }
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The completion for a request body. */
    String reply(JsonNode body) {
        JsonNode messages = body.path("messages");
        String query = null;
        int turns = 0;
        for (JsonNode m : messages) {
            String role = m.path("role").asText();
            if (query == null && role.equals("user")) query = m.path("content").asText();
            if (role.equals("assistant")) turns++;
        }
        boolean nativeTools = body.has("tools");
        Episode e = query == null ? null : byQuery.get(query);
        if (e == null) return completion(new Action.Answer("I do not know this request."), Interface.FUNCTION_CALL, nativeTools, body.toString().length());
        Env env = e.stack().apply(e.environment().create());
        return completion(replay(env, e, query, turns), env.info().iface(), nativeTools, body.toString().length());
    }

    /** Runs the policy from the start of the episode in a private environment up to the current turn. */
    private Action replay(Env env, Episode e, String query, int turns) {
        Start start = env.reset(e.request());
        Policy policy = new Policy(behaviour(query), env.guide(), start);
        Step last = null;
        for (int i = 0; ; i++) {
            Action a = policy.next(i, last);
            if (i == turns) return a;
            last = env.step(a);
            if (last.done()) return new Action.Answer("(episode already over)");
        }
    }

    public Behaviour behaviour(String query) {
        if (flawless) return Behaviour.ORACLE;
        int bucket = (int) Math.floorMod(Seeds.mix(query.hashCode(), 0xBEEF), 100L);
        if (bucket < 60) return Behaviour.ORACLE;
        if (bucket < 68) return Behaviour.HALLUCINATE_FIRST;
        if (bucket < 74) return Behaviour.BAD_ARGUMENTS_FIRST;
        if (bucket < 82) return Behaviour.PREMATURE;
        if (bucket < 87) return Behaviour.REFUSE;
        if (bucket < 91) return Behaviour.LOOP;
        return Behaviour.WRONG_ANSWER;
    }

    /** The scripted policy: the guide, with one kind of mistake. */
    private static final class Policy {
        private final Behaviour b;
        private final Guide guide;
        private final Start start;
        private int offset;

        Policy(Behaviour b, Guide guide, Start start) {
            this.b = b;
            this.guide = guide;
            this.start = start;
        }

        Action next(int turn, Step last) {
            String firstTool = start.tools().isEmpty() ? "help" : start.tools().getFirst().name();
            switch (b) {
                case HALLUCINATE_FIRST -> {
                    if (turn == 0) {
                        offset = 1;
                        return Action.CallTools.of("h_0", "lookup_everything", "{}");
                    }
                }
                case BAD_ARGUMENTS_FIRST -> {
                    if (turn == 0) {
                        offset = 1;
                        return Action.CallTools.of("b_0", firstTool, "{\"broken\": ");
                    }
                }
                case PREMATURE -> {
                    return new Action.Answer("I believe the answer is 42.");
                }
                case REFUSE -> {
                    return new Action.Refuse("this cannot be done");
                }
                case LOOP -> {
                    return Action.CallTools.of("l_" + turn, firstTool, "{}");
                }
                default -> { }
            }
            Action a = guide.next(turn - offset == 0 ? null : last);
            if (b == Behaviour.WRONG_ANSWER && a instanceof Action.Answer) return new Action.Answer("Done.");
            return a;
        }
    }

    /** The model's message for an action, written as the protocol of the environment's interface says. */
    private static String completion(Action a, Interface iface, boolean nativeTools, int promptChars) {
        ObjectNode message = Json.object().put("role", "assistant");
        String finish = "stop";
        List<Action.ToolCall> calls = switch (a) {
            case Action.CallTools c -> c.calls();
            case Action.AskUser q when iface == Interface.FUNCTION_CALL ->
                    List.of(new Action.ToolCall("ask", Protocol.ASK_USER, Json.write(Map.of("question", q.question()))));
            default -> List.of();
        };
        if (!calls.isEmpty() && nativeTools) {
            message.putNull("content");
            ArrayNode tc = message.putArray("tool_calls");
            for (Action.ToolCall c : calls) {
                ObjectNode o = tc.addObject().put("id", c.id()).put("type", "function");
                o.putObject("function").put("name", c.name()).put("arguments", c.arguments());
            }
            finish = "tool_calls";
        } else if (!calls.isEmpty()) {
            StringBuilder sb = new StringBuilder();
            for (Action.ToolCall c : calls) sb.append("<tool_call>\n{\"name\": ").append(Json.write(c.name())).append(", \"arguments\": ")
                    .append(c.arguments()).append("}\n</tool_call>\n");
            message.put("content", sb.toString());
        } else {
            message.put("content", switch (a) {
                case Action.Command c -> c.text();
                case Action.AskUser q -> Protocol.ASK_COMMAND + " " + q.question();
                case Action.Answer x -> Protocol.finalText(x, iface);
                case Action.Refuse x -> Protocol.finalText(x, iface);
                default -> "";
            });
        }
        ObjectNode root = Json.object().put("id", "scripted").put("object", "chat.completion").put("model", "scripted");
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        choice.set("message", message);
        choice.put("finish_reason", finish);
        root.putObject("usage").put("prompt_tokens", promptChars / 4).put("completion_tokens", 20).put("total_tokens", promptChars / 4 + 20);
        return Json.write(root);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    /** Serves until killed: {@code --env poi --shift all --tasks 50 --seed 1 [--split test] [--difficulty 0] [--failure-rate 0.05]}. */
    public static void main(String[] args) throws Exception {
        Map<String, String> a = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) a.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        TaskPlan plan = new TaskPlan(Split.parse(a.getOrDefault("split", "test")), Integer.parseInt(a.getOrDefault("tasks", "50")),
                Long.parseLong(a.getOrDefault("seed", "1")), Integer.parseInt(a.getOrDefault("difficulty", "0")));
        ScriptedModel m = new ScriptedModel(List.of(a.getOrDefault("env", "poi").split(",")), a.getOrDefault("shift", "none"), plan,
                Double.parseDouble(a.getOrDefault("failure-rate", "0")), false);
        System.out.println(m.baseUrl());
        System.out.flush();
        Thread.currentThread().join();
    }
}
