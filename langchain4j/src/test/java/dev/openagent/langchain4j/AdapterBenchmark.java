package dev.openagent.langchain4j;

import dev.langchain4j.service.AiServices;
import dev.openagent.agent.framework.FrameworkEpisodes;
import dev.openagent.agent.framework.ModelReplies;
import dev.openagent.registry.Environments;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.fake.OracleChat;
import dev.openagent.run.TaskPlan;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sandbox's cost per agent turn in-process for a LangChain4j agent, against a zero-latency fake
 * model that plays the oracle ({@link OracleChat}): turns per CPU-second of one thread (a busy
 * machine does not distort it) and per wall-second, for the same episodes played three ways,
 * alternating within each round: the model as a harness agent without any framework (the floor:
 * environment, conversation, the fake model), as a LangChain4j AI service through the adapter
 * (AiServices' tool loop, the ToolProvider, the recording model, the transcript), and as a bare
 * ChatModel agent. Run it with
 * {@code ./mvnw -pl langchain4j -am test -Dtest=AdapterBenchmark -Dexcluded.groups=none -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("benchmark")
class AdapterBenchmark {
    private static final Environment POI = Environments.get("poi");
    private static final int TASKS = 300;
    private static final int ROUNDS = 7;

    interface Concierge {
        String chat(String request);
    }

    /** The fake model as an agent of the harness: its replies become actions as a model's do. */
    private static Agent direct(OracleChat oracle) {
        return new Agent() {
            public String name() { return "direct"; }

            public AgentSession begin(Start start, Env env) {
                int[] turn = {0};
                return last -> ModelReplies.action(oracle.next(), Interface.FUNCTION_CALL, ++turn[0]);
            }
        };
    }

    private static Trajectory aiService(TaskRequest r) {
        FakeModels.Scripted model = FakeModels.oracle(new OracleChat(POI, ShiftStack.NONE, r));
        LangChain4jAgent agent = LangChain4jAgent.of("ai-service", model, episode -> AiServices.builder(Concierge.class)
                .chatModel(episode.chatModel()).toolProvider(episode.toolProvider())
                .systemMessageProvider(id -> episode.systemPrompt()).build().chat(episode.query()));
        return FrameworkEpisodes.run(POI.create(), agent, r).trajectory();
    }

    @Test
    void turnsPerSecond() {
        List<TaskRequest> tasks = new TaskPlan(Split.TEST, TASKS, 1, 0).requests();
        Map<String, Function<TaskRequest, Trajectory>> variants = new LinkedHashMap<>();
        variants.put("harness agent, no framework", r -> Episodes.run(POI.create(), direct(new OracleChat(POI, ShiftStack.NONE, r)), r));
        variants.put("LangChain4j AI service (adapter)", AdapterBenchmark::aiService);
        variants.put("LangChain4j bare ChatModel agent", r -> Episodes.run(POI.create(),
                LangChain4jAgent.chatModel("bare", FakeModels.oracle(new OracleChat(POI, ShiftStack.NONE, r))), r));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<String, List<double[]>> samples = new LinkedHashMap<>();
        variants.keySet().forEach(v -> samples.put(v, new ArrayList<>()));
        for (int round = 0; round <= ROUNDS; round++) {
            for (Map.Entry<String, Function<TaskRequest, Trajectory>> v : variants.entrySet()) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                long turns = 0;
                for (TaskRequest r : tasks) {
                    Trajectory t = v.getValue().apply(r);
                    assertTrue(t.success(), () -> v.getKey() + ": " + t.outcome());
                    turns += t.stats().turns();
                }
                double cpu = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
                double wall = (System.nanoTime() - wall0) / 1e9;
                if (round > 0) samples.get(v.getKey()).add(new double[]{turns / cpu, turns / wall});  // round 0 warms up
            }
        }
        double floor = median(samples.values().iterator().next(), 0);
        System.out.printf(Locale.ROOT, "poi, %d oracle episodes per run, %d runs per variant (medians; one thread):%n", TASKS, ROUNDS);
        System.out.printf(Locale.ROOT, "  %-36s %14s %14s %12s %16s%n", "variant", "turns/CPU-s", "turns/wall-s", "us/turn", "us/turn over floor");
        samples.forEach((v, s) -> {
            double cpuRate = median(s, 0);
            System.out.printf(Locale.ROOT, "  %-36s %,14.0f %,14.0f %12.1f %16.1f%n", v, cpuRate, median(s, 1), 1e6 / cpuRate,
                    1e6 / cpuRate - 1e6 / floor);
        });
    }

    private static double median(List<double[]> s, int i) {
        double[] v = s.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }
}
