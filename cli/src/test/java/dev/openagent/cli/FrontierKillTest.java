package dev.openagent.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.episode.Message;
import dev.openagent.json.Json;
import dev.openagent.sandbox.ToolSpec;
import dev.openagent.server.http.ApiError;
import dev.openagent.server.model.ChatPolicy;
import dev.openagent.server.model.ModelServer;
import dev.openagent.store.ResultStore;
import dev.openagent.store.RunStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frontier against an OpenAI-compatible endpoint that fails: {@code serve model} in front of a small trained
 * policy, answering some requests with a 429 or a 503 ({@link Faulty}): with one retry per request, a third of the
 * episodes end in an infrastructure error the first time they run and succeed when run again. A frontier run killed with SIGKILL in the middle (once the endpoint has
 * answered half the requests an uninterrupted run makes, holding later ones, so the moment does not depend on
 * timing) and run again gives the verdicts of the uninterrupted run, which are those of a run against the same
 * endpoint without faults: infrastructure errors never count as the agent's failures.
 */
@Timeout(value = 900, unit = TimeUnit.SECONDS)
class FrontierKillTest {
    @TempDir
    Path dir;

    @Test
    void aFrontierKilledAndRerunAgainstAFaultyEndpointGivesTheUninterruptedVerdicts() throws Exception {
        Path checkpoint = TinyPolicy.checkpoint();
        try (PolicyChatPolicy policy = PolicyChatPolicy.load(checkpoint, "tiny-sft")) {
            Faulty faulty = new Faulty(policy);
            EvalKillTest.Gate gate = new EvalKillTest.Gate(faulty);
            try (ModelServer server = ModelServer.start(gate, ModelServer.Config.loopback())) {
                List<String> args = List.of("frontier", "--agent", "openai", "--base-url", server.baseUrl(), "--model", "tiny-sft", "--retries", "1",
                        "--env", "poi", "--difficulty", "1", "--shift", "obs.format;tool.name-noise;query.noise", "--drop", "0.25",
                        "--confidence", "0.8", "--max-tasks", "30", "--budget", "400", "--concurrency", "4", "--json", "--no-progress");

                faulty.reset(false);
                JsonNode clean = run(args, dir.resolve("clean"));
                int requests = gate.served.get();

                faulty.reset(true);
                JsonNode whole = run(args, dir.resolve("whole"));
                assertTrue(faulty.faults.get() > 0, "the endpoint injected faults");
                assertEquals(verdicts(clean), verdicts(whole), "infrastructure errors changed no verdict");

                faulty.reset(true);
                int half = gate.closeAfter(requests / 2);
                Path killed = dir.resolve("killed");
                List<String> command = EvalKillTest.command(withOut(args, killed), killed.resolve("runs.db"));
                Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("killed.log").toFile()).start();
                while (!gate.reached.await(1, TimeUnit.SECONDS)) {
                    assertTrue(child.isAlive(), "the child ended before " + half + " requests:\n" + Files.readString(dir.resolve("killed.log")));
                }
                child.destroyForcibly();   // SIGKILL on Linux: no shutdown hook, no finally block runs
                assertTrue(child.waitFor(60, TimeUnit.SECONDS));
                assertEquals(137, child.exitValue(), "killed by SIGKILL (128 + 9)");
                gate.open();
                int saved;
                try (ResultStore store = ResultStore.openExisting(killed.resolve("runs.db"))) {
                    assertEquals(1, store.runs().size());
                    assertEquals(RunStatus.RUNNING, store.runs().getFirst().status(), "the killed run never finished");
                    saved = store.episodes(store.runs().getFirst().id()).size();
                }
                assertTrue(saved > 0, "killed mid-way, after some episodes were saved");

                Process rerun = new ProcessBuilder(command).redirectError(dir.resolve("rerun.err").toFile()).start();
                String out = new String(rerun.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(rerun.waitFor(300, TimeUnit.SECONDS));
                assertEquals(0, rerun.exitValue(), out + Files.readString(dir.resolve("rerun.err")));
                JsonNode resumed = Json.parse(out);
                assertEquals(verdicts(whole), verdicts(resumed));
                assertEquals(whole.path("episodes_spent"), resumed.path("episodes_spent"));
                assertTrue(whole.path("episodes_spent").asInt() > saved, "the rerun had episodes left to run");
                // A comparison that means something: ladders climbed, and both verdicts occur.
                assertTrue(whole.path("frontier").findValues("verdict").stream().map(JsonNode::asText).distinct().count() == 2, whole.toString());
            }
        }
    }

    /** Everything the frontier concluded: per shift and composition, the verdicts, drops, intervals and episodes. */
    static JsonNode verdicts(JsonNode j) {
        ObjectNode o = Json.object();
        o.set("frontier", j.path("frontier"));
        o.set("compositions", j.path("compositions"));
        o.set("static", j.path("static"));
        return o;
    }

    /** Runs the frontier in this process, its store and files in {@code out}; it must run to its end. */
    JsonNode run(List<String> args, Path out) {
        List<String> all = withOut(args, out);
        all.addAll(List.of("--store", out.resolve("runs.db").toString()));
        CliTest.Result r = CliTest.run(all.toArray(String[]::new));
        assertEquals(0, r.code(), r.err() + r.out());
        JsonNode j = r.json();
        assertTrue(j.path("complete").asBoolean(), j.toString());
        return j;
    }

    static List<String> withOut(List<String> args, Path out) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--out", out.toString()));
        return all;
    }

    /**
     * The endpoint's faults, each a 429 (even hash of the conversation) or a 503: the opening request of a third of the
     * episodes (by the hash of its conversation) fails the first two times it arrives, so with one retry the episode ends
     * in an infrastructure error and succeeds when run again; any other request whose conversation hashes to 0 mod 8
     * fails the first time, which the client's retry absorbs.
     */
    static final class Faulty implements ChatPolicy {
        final ChatPolicy policy;
        final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        final AtomicInteger faults = new AtomicInteger();
        volatile boolean failing;

        Faulty(ChatPolicy policy) { this.policy = policy; }

        void reset(boolean failing) {
            seen.clear();
            faults.set(0);
            this.failing = failing;
        }

        @Override
        public String id() { return policy.id(); }

        @Override
        public Message respond(List<Message> messages, List<ToolSpec> tools) {
            String text = messages.toString();
            boolean opening = messages.stream().noneMatch(m -> m.role().equals("assistant"));
            int failures = !failing ? 0 : opening && Math.floorMod(text.hashCode(), 3) == 0 ? 2 : Math.floorMod(text.hashCode(), 8) == 0 ? 1 : 0;
            if (failures > 0 && seen.computeIfAbsent(text, k -> new AtomicInteger()).incrementAndGet() <= failures) {
                faults.incrementAndGet();
                throw text.hashCode() % 2 == 0 ? new ApiError(429, "rate_limited", "slow down") : new ApiError(503, "unavailable", "try later");
            }
            return policy.respond(messages, tools);
        }
    }
}
