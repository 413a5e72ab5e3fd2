package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.agent.RandomAgent;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.results.EpisodeResult;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.model.AgentChatPolicy;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ModelServer;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real kill: {@code openagent eval} runs as a child process and is killed with SIGKILL in the
 * middle of its run (once the endpoint has answered half the requests an uninterrupted run makes,
 * holding later ones, so the moment does not depend on timing); rerun, it finishes the run, and its
 * summary and every episode are those of the uninterrupted run.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class EvalKillTest {
    static final int TASKS = 10;

    @TempDir
    Path dir;

    @Test
    void anEvalKilledMidRunAndRerunEndsAsAnUninterruptedOne() throws Exception {
        Gate gate = new Gate(new AgentChatPolicy("random-3", new RandomAgent(3)));
        try (ModelServer server = ModelServer.start(gate, ModelServer.Config.loopback())) {
            List<String> args = List.of("eval", "--agent", "openai", "--base-url", server.baseUrl(), "--model", "random-3",
                    "--env", "poi,retail", "--shift", "obs.format;tool.name-noise", "--tasks", "" + TASKS, "--concurrency", "4",
                    "--json", "--no-progress");

            Path wholeStore = dir.resolve("whole.db");
            CliTest.Result whole = CliTest.run(withStore(args, wholeStore).toArray(String[]::new));
            assertEquals(0, whole.code(), whole.err());
            JsonNode uninterrupted = whole.json();
            int half = gate.closeAfter(gate.served.get() / 2);   // requests answered before the kill

            Path killedStore = dir.resolve("killed.db");
            Process child = new ProcessBuilder(command(args, killedStore)).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("killed.log").toFile()).start();
            while (!gate.reached.await(1, TimeUnit.SECONDS)) {
                assertTrue(child.isAlive(), "the child ended before " + half + " requests:\n" + java.nio.file.Files.readString(dir.resolve("killed.log")));
            }
            child.destroyForcibly();   // SIGKILL on Linux: no shutdown hook, no finally block runs
            assertTrue(child.waitFor(60, TimeUnit.SECONDS));
            assertEquals(137, child.exitValue(), "killed by SIGKILL (128 + 9)");
            gate.open();

            int savedBeforeRerun;
            try (ResultStore store = ResultStore.openExisting(killedStore)) {
                assertEquals(1, store.runs().size());
                assertFalse(RunStatus.COMPLETE == store.runs().getFirst().status(), "the killed run is not complete");
                savedBeforeRerun = store.episodes(store.runs().getFirst().id()).size();
            }

            Process rerun = new ProcessBuilder(command(args, killedStore)).redirectError(dir.resolve("rerun.err").toFile()).start();
            String rerunOut = new String(rerun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(rerun.waitFor(180, TimeUnit.SECONDS));
            assertEquals(0, rerun.exitValue(), rerunOut);
            JsonNode resumed = Json.parse(rerunOut);

            int episodes = uninterrupted.path("episodes").asInt();
            assertEquals(2 * 3 * TASKS, episodes, "2 environments x (static + 2 shifts) x " + TASKS + " tasks");
            assertTrue(resumed.path("complete").asBoolean(), resumed.toString());
            assertEquals(savedBeforeRerun, resumed.path("reused").asInt(), "the rerun reuses what the killed run saved");
            assertTrue(savedBeforeRerun > 0 && savedBeforeRerun < episodes, "killed mid-run: " + savedBeforeRerun + " of " + episodes + " saved");
            assertEquals(episodes - savedBeforeRerun, resumed.path("ran").asInt());
            assertEquals(comparable(uninterrupted), comparable(resumed));

            Map<String, EpisodeResult> a = episodes(wholeStore), b = episodes(killedStore);
            assertEquals(a.keySet(), b.keySet());
            for (String key : a.keySet()) {
                assertEquals(a.get(key).trajectory(), b.get(key).trajectory(), key);
                assertEquals(a.get(key).outcome(), b.get(key).outcome(), key);
            }
            // The random agent solves nothing, but its episodes are long and varied: the trajectories compared are not trivial.
            assertTrue(a.values().stream().mapToInt(e -> e.trajectory().stats().turns()).sum() > 5 * episodes, "long episodes");
        }
    }

    /** The summary without what differs between invocations by design: the store's path, the run's id, what this invocation ran, reused and spent. */
    static JsonNode comparable(JsonNode summary) {
        ObjectNode s = summary.deepCopy();
        s.remove(List.of("store", "run", "reused", "ran", "spent_now", "seconds", "elapsed_seconds"));
        return s;
    }

    static Map<String, EpisodeResult> episodes(Path storeFile) {
        Map<String, EpisodeResult> out = new TreeMap<>();
        try (ResultStore store = ResultStore.openExisting(storeFile)) {
            assertEquals(1, store.runs().size());
            assertEquals(RunStatus.COMPLETE, store.runs().getFirst().status());
            for (EpisodeResult e : store.episodes(store.runs().getFirst().id())) out.put(e.id(), e);
        }
        return out;
    }

    static List<String> withStore(List<String> args, Path store) {
        List<String> out = new ArrayList<>(args);
        out.addAll(List.of("--store", store.toString()));
        return out;
    }

    /** {@code java -cp <test classpath> dev.openagent.cli.Main ARGS --store STORE}. */
    static List<String> command(List<String> args, Path store) {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), "dev.openagent.cli.Main"));
        cmd.addAll(withStore(args, store));
        return cmd;
    }

    /** Answers every request until {@link #closeAfter}; then the first {@code limit} more, and holds later ones until {@link #open}. */
    static final class Gate implements ChatPolicy {
        final ChatPolicy policy;
        volatile int limit = Integer.MAX_VALUE;
        final AtomicInteger served = new AtomicInteger();
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch opened = new CountDownLatch(1);

        Gate(ChatPolicy policy) {
            this.policy = policy;
        }

        /** Counts anew and holds every request after the next {@code n}; returns {@code n}. */
        int closeAfter(int n) {
            served.set(0);
            limit = n;
            return n;
        }

        void open() { opened.countDown(); }

        @Override
        public String id() { return policy.id(); }

        @Override
        public Message respond(List<Message> messages, List<ToolSpec> tools) {
            if (served.incrementAndGet() > limit) {
                reached.countDown();
                try {
                    opened.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return policy.respond(messages, tools);
        }
    }
}
