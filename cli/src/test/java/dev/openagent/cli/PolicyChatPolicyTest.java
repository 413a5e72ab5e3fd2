package dev.openagent.cli;

import dev.openagent.agent.openai.ChatEndpoint;
import dev.openagent.agent.openai.OpenAiAgent;
import dev.openagent.agent.openai.OpenAiConfig;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.policy.Checkpoint;
import dev.openagent.policy.Policy;
import dev.openagent.policy.PolicyAgent;
import dev.openagent.policy.PolicyConfig;
import dev.openagent.policy.Vocabulary;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.server.model.ModelServer;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A built-in policy checkpoint served by {@code serve model} to the harness's {@code openai} agent
 * makes the same episodes as the policy in-process ({@code --agent policy:DIR}): the same messages,
 * turn by turn. The policy here is untrained (fast, long episodes of calls and errors); the CLI's {@code ServeModelEvalTest}
 * compares success episode by episode through {@code openagent eval} with one that solves tasks.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class PolicyChatPolicyTest {
    @TempDir
    static Path dir;

    static Path checkpoint;

    /**
     * A tiny policy with random weights (no training: fast): it calls tools with arguments copied from
     * the request and gets results and errors back, turn after turn, rarely to a success.
     */
    static PolicyAgent local;

    /** One method: JUnit does not order two @BeforeAll methods, and loading needs the saved checkpoint. */
    @BeforeAll
    static void createAndLoad() {
        // Random weights often settle on one action (asking the user, or answering at once); take the
        // first seed whose policy also calls the environment's tools, so tool errors can occur.
        for (long seed = 11; local == null; seed++) {
            if (seed > 60) throw new IllegalStateException("no random policy among seeds 11..60 calls a tool");
            checkpoint = dir.resolve("tiny-random-" + seed);
            try (Policy p = Policy.create(PolicyConfig.tiny(), Vocabulary.open(), seed)) {
                Checkpoint.save(p, checkpoint, null);
            }
            PolicyAgent candidate = PolicyAgent.load(checkpoint);
            if (callsTools(candidate)) local = candidate;
            else candidate.policy().close();
        }
    }

    /** Whether the policy calls the environment's tools (3 static poi tasks). */
    private static boolean callsTools(PolicyAgent agent) {
        Env env = Environments.get("poi").create();
        boolean calls = false;
        for (TaskRequest t : new TaskPlan(Split.TEST, 3, 5, 0).requests()) {
            Trajectory tr = Episodes.run(env, agent, t);
            calls |= tr.messages().stream()
                    .anyMatch(m -> m.toolCalls() != null && m.toolCalls().stream().anyMatch(c -> !c.function().name().equals("ask_user")));
        }
        return calls;
    }

    @AfterAll
    static void close() {
        if (local != null) local.policy().close();
    }

    @Test
    void theServedPolicyMakesTheSameEpisodesAsInProcess() throws Exception {
        try (PolicyChatPolicy chat = PolicyChatPolicy.load(checkpoint, "tiny-random");
             ModelServer server = ModelServer.start(chat, ModelServer.Config.loopback());
             ChatEndpoint endpoint = new ChatEndpoint(OpenAiConfig.of(server.baseUrl(), "tiny-random"))) {
            OpenAiAgent served = new OpenAiAgent(endpoint);
            int turns = 0, errors = 0;
            // Static tasks, requests that lack a detail (the user's replies, if the policy asks, come
            // back as ask_user tool messages), and transient tool errors (read back from their text).
            for (String shift : List.of("none", "query.underspecified", "obs.runtime-error:severity=3")) {
                ShiftStack stack = ShiftSpec.expand(shift).getFirst();
                Env env = stack.apply(Environments.get("poi").create());
                for (TaskRequest t : new TaskPlan(Split.TEST, 3, 5, 0).requests()) {
                    Trajectory l = Episodes.run(env, local, t), r = Episodes.run(env, served, t);
                    String where = shift + " " + t;
                    assertEquals(l.messages(), r.messages(), where);
                    assertEquals(l.outcome(), r.outcome(), where);
                    turns += r.stats().turns();
                    errors += r.stats().toolErrors();
                }
            }
            assertTrue(turns > 9, "episodes of more than one turn on average: " + turns + " (" + checkpoint.getFileName() + ")");
            assertTrue(errors > 0, "error observations went through the endpoint: " + errors);
        }
    }
}
