package dev.openagent.shift;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.AgentSession;
import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.json.Json;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Interface;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftExpectations.Bite;
import dev.openagent.shift.ShiftExpectations.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shifts bite. Every shift, on every environment it applies to, changes what the agent is shown as
 * {@link ShiftExpectations} says, over many seeds; and an agent that replays the static tool names
 * (or verbs) and parses the static JSON results solves every static task, on every environment, and
 * fails under the shifts meant to defeat that habit (the oracle solves them all: ShiftOracleTest).
 */
class ShiftsBiteTest {
    static final int N = 80;
    /** Episodes per line of the expectations, on each environment and severity. */
    static final int EPISODES = 60;
    /**
     * A line that counts only some episodes ({@link ShiftExpectations.Where}) counts up to {@link #WHERE_EPISODES}
     * of them in the first {@link #WHERE_SEEDS} seeds, and at least {@link #WHERE_LEAST}: poi's tasks look up one
     * place, so a read tool's list longer than poi's first page (5) comes about once in 160 episodes.
     */
    static final int WHERE_EPISODES = 20;
    static final int WHERE_LEAST = 5;
    static final int WHERE_SEEDS = 800;

    /** Every line of the expectations, on every environment its shift applies to, at every severity it covers. */
    static Stream<Arguments> bites() {
        List<Bite> bites = ShiftExpectations.bites();
        Map<String, Set<String>> applies = ShiftExpectations.applies();
        List<Arguments> out = new ArrayList<>();
        for (Bite b : bites) {
            String id = ShiftExpectations.id(b.spec());
            for (String env : applies.get(id)) {
                if (b.env().isPresent() ? !b.env().get().equals(env)
                        : bites.stream().anyMatch(o -> o.spec().equals(b.spec()) && o.env().filter(env::equals).isPresent())) continue;
                boolean graded = ShiftCatalog.get(id).params().stream().anyMatch(p -> p.name().equals("severity"));
                if (b.spec().contains(":") || !graded) out.add(Arguments.of(env, b.spec(), b));
                else for (int sev = 1; sev <= 3; sev++) out.add(Arguments.of(env, b.spec() + ":severity=" + sev, b));
            }
        }
        return out.stream();
    }

    @Test
    void everyShiftOfTheCatalogHasItsExpectations() {
        Set<String> ids = ShiftCatalog.all().stream().map(Shift::id).collect(Collectors.toSet());
        Set<String> bitten = ShiftExpectations.bites().stream().map(b -> ShiftExpectations.id(b.spec())).collect(Collectors.toSet());
        assertEquals(ids, bitten, "every shift has a line in ShiftExpectations.BITES, and only shifts of the catalog");
        ShiftExpectations.bites().forEach(b -> ShiftSpec.parseStack(b.spec()));
    }

    /**
     * The shift changes what it promises to change, in at least the share of episodes its line says, at
     * every severity; where it is meant to defeat a static habit, the static replay fails in at least
     * the share its line says. A line that acts only on some episodes ({@link ShiftExpectations.Where}: long
     * lists, issued codes, governed values) counts such episodes only, drawn from the same seeds onwards.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("bites")
    void everyShiftChangesWhatTheAgentIsShown(String envId, String spec, Bite bite) {
        Environment environment = Environments.get(envId);
        Env base = environment.create();
        Env shifted = ShiftSpec.parseStack(spec).apply(environment.create());
        Agent replay = new StaticReplayAgent();
        Map<Channel, Integer> changed = new EnumMap<>(Channel.class);
        int staticFailed = 0;
        boolean all = bite.where() == ShiftExpectations.Where.ALL;
        int episodes = all ? EPISODES : WHERE_EPISODES;
        int counted = 0;
        int seeds = 0;
        for (int i = 0; counted < episodes && i < (all ? EPISODES : WHERE_SEEDS); i++, seeds++) {
            TaskRequest r = new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 700 + i, 0);
            if (!all && !bite.where().holds(base, StaticCalls.of(environment, r), shifted.reset(r))) continue;
            counted++;
            List<Action> actions = badCallThenOracle(base, r);
            Shown before = shown(base, r, actions);
            Shown after = shown(shifted, r, actions);
            for (Channel c : Channel.values()) if (!before.of(c).equals(after.of(c))) changed.merge(c, 1, Integer::sum);
            if (!Episodes.run(shifted, replay, r).success()) staticFailed++;
        }
        assertTrue(counted >= (all ? EPISODES : WHERE_LEAST), envId + " " + spec + ": " + counted + " episodes where " + bite.where() + " holds, in " + seeds + " seeds");
        episodes = counted;
        for (var e : bite.changes().entrySet()) {
            int n = changed.getOrDefault(e.getKey(), 0);
            assertTrue(100 * n >= e.getValue() * episodes, envId + " " + spec + ": " + e.getKey().name().toLowerCase() + " changed in " + n + " of " + episodes
                    + " episodes; expected at least " + e.getValue() + "% (all changes: " + changed + ")");
        }
        assertTrue(100 * staticFailed >= bite.staticFails() * episodes, envId + " " + spec + ": the static replay failed " + staticFailed + " of " + episodes
                + " episodes; expected at least " + bite.staticFails() + "%");
    }

    /** What the agent is shown in an episode: its start, and the observations of a fixed list of actions. */
    record Shown(String prompt, String query, String tools, List<String> results) {
        String of(Channel c) {
            return switch (c) {
                case QUERY -> query;
                case PROMPT -> prompt;
                case TOOLS -> tools;
                case RESULTS -> String.join("\n", results);
            };
        }
    }

    /** One bad call (a real tool with an unknown parameter, or a command no one knows), then the oracle's actions in the static episode. */
    static List<Action> badCallThenOracle(Env env, TaskRequest request) {
        Start start = env.reset(request);
        List<Action> out = new ArrayList<>();
        out.add(env.info().iface() == Interface.TEXT_COMMAND ? new Action.Command("frobnicate the lamp")
                : Action.CallTools.of("bad", env.task().plan().calls().isEmpty() ? "no_such_tool" : env.task().plan().calls().getFirst().tool(),
                "{\"no_such_parameter\": 1}"));
        AgentSession oracle = new OracleAgent().begin(start, env);
        Step last = null;
        do {
            out.add(oracle.act(last));
            last = env.step(out.getLast());
        } while (!last.done());
        return out;
    }

    /**
     * What the environment shows for the request: its start (in a text-command environment the answer
     * to help stands for the tool list) and the observations of {@code actions}, replayed whatever they bring.
     */
    static Shown shown(Env env, TaskRequest request, List<Action> actions) {
        boolean text = env.info().iface() == Interface.TEXT_COMMAND;
        Start start = env.reset(request);
        String tools = text ? env.step(new Action.Command("help")).observations().getFirst().text() : Json.write(start.tools());
        env.reset(request);
        List<String> results = new ArrayList<>();
        for (Action a : actions) {
            Step s = env.step(a);
            s.observations().forEach(o -> results.add(o.text()));
            if (s.done()) break;
        }
        return new Shown(start.systemPrompt(), start.query(), tools, results);
    }

    static List<String> functionCall() {
        return Environments.all().stream().filter(e -> e.info().iface() == Interface.FUNCTION_CALL).map(Environment::id).toList();
    }

    static Stream<Arguments> nameAndFormatShifts() {
        return functionCall().stream().flatMap(env -> Stream.of("tool.identity-erasure", "tool.semantic-trap", "tool.name-noise",
                "tool.name-noise:severity=1", "obs.format", "obs.format:format=yaml,severity=1").map(spec -> Arguments.of(env, spec)));
    }

    private static int successes(String env, String spec, int difficulty) {
        Env e = ShiftSpec.expand(spec).getFirst().apply(Environments.get(env).create());
        var agent = new StaticReplayAgent();
        int ok = 0;
        for (int i = 0; i < N; i++) {
            Trajectory t = Episodes.run(e, agent, new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 300 + i, difficulty));
            if (t.success()) ok++;
        }
        return ok;
    }

    @ParameterizedTest
    @MethodSource("dev.openagent.envs.EnvironmentContractTest#ids")
    void theReplayAgentSolvesTheStaticEnvironment(String env) {
        assertEquals(N, successes(env, "none", 0));
    }

    /**
     * poi fails every task; elsewhere a rare task survives by coincidence (a trap may swap two tools
     * that take the same id and both return the field asked for, like an order record and its tracking).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("nameAndFormatShifts")
    void theReplayAgentFailsEveryTaskUnderNameAndFormatShifts(String env, String spec) {
        int ok = successes(env, spec, 0);
        if (env.equals("poi")) assertEquals(0, ok, spec);
        else assertTrue(ok <= N / 20, env + " " + spec + ": " + ok + " of " + N + " static replays still succeed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tool.identity-erasure", "tool.semantic-trap", "tool.semantic-rename:severity=1", "tool.name-noise:severity=1"})
    void theCommandReplayAgentFailsEveryHouseholdTaskWhenVerbsAreRenamed(String spec) {
        assertEquals(0, successes("household", spec, 0), spec);
    }

    /** Every task whose plan uses a prerequisite pair of the environment fails under logic.inversion with the static call order. */
    @ParameterizedTest
    @MethodSource("functionCall")
    void theReplayAgentFailsEveryTaskUsingAPrerequisitePairUnderLogicInversion(String env) {
        Env base = Environments.get(env).create();
        base.reset(new TaskRequest(Split.TEST, 0, 0));
        List<EnvFacts.Prerequisite> pairs = base.facts().prerequisites();
        Env shifted = ShiftSpec.parseStack("logic.inversion").apply(Environments.get(env).create());
        StaticReplayAgent agent = new StaticReplayAgent();
        int using = 0;
        for (int i = 0; i < N; i++) {
            TaskRequest r = new TaskRequest(Split.TEST, 500 + i, i % 2 == 0 ? 3 : 4);
            base.reset(r);
            Set<String> tools = base.task().plan().calls().stream().map(GoldPlan.Call::tool).collect(Collectors.toSet());
            if (pairs.stream().noneMatch(p -> tools.contains(p.before()) && tools.contains(p.after()))) continue;
            using++;
            Trajectory t = Episodes.run(shifted, agent, r);
            assertTrue(!t.success(), env + ": the static call order fails under logic.inversion: " + t.taskId());
        }
        assertTrue(using > N / 5, env + ": enough tasks use a prerequisite pair: " + using);
    }
}
