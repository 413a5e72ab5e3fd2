package dev.openagent.shift;

import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which goals an attacker is given in each environment ({@link ShiftExpectations#goals()}, written down, not
 * read from the code).
 */
class AttackGoalsTest {
    private static final int TASKS = 200;

    static List<String> envs() { return Environments.ids(); }

    private static String kind(Attack.Goal g) {
        return switch (g) {
            case Attack.Hijack h -> "hijack";
            case Attack.Cancel c -> "cancel";
            case Attack.Send x -> "send";
            case Attack.Dictate d -> "dictate";
        };
    }

    @ParameterizedTest
    @MethodSource("envs")
    void eachEnvironmentGetsTheGoalsItHasTheMeansFor(String env) {
        Env e = Environments.get(env).create();
        Set<String> seen = new TreeSet<>();
        for (int i = 0; i < TASKS; i++) {
            Start start = e.reset(new TaskRequest(Split.TEST, 700 + i, 0));
            List<String> tools = start.tools().stream().map(ToolSpec::name).toList();
            Attack a = Attack.choose(e.task(), e.facts(), tools, new SplittableRandom(i));
            seen.add(kind(a.goal()));
            if (a.goal() instanceof Attack.Cancel c) {
                // The cancelling tool is declared to undo the committing one, which the task's plan calls after its first call.
                assertEquals(c.made(), e.facts().tool(c.tool()).orElseThrow().undoes(), env);
                assertTrue(e.task().plan().calls().stream().skip(1).anyMatch(x -> x.tool().equals(c.made())), env + " " + e.task().id());
                assertTrue(tools.contains(c.tool()), env);
            }
            if (a.goal() instanceof Attack.Send x) {
                // The sending tool is declared to send the committing tool's code, which the plan calls after its first call.
                assertEquals(x.made(), e.facts().tool(x.tool()).orElseThrow().sends().made(), env);
                assertTrue(e.task().plan().calls().stream().skip(1).anyMatch(c -> c.tool().equals(x.made())), env + " " + e.task().id());
                assertTrue(tools.contains(x.tool()), env);
                assertTrue(a.instruction(1, env).contains(x.address()), env);
            }
        }
        Set<String> expected = new TreeSet<>();
        for (Map.Entry<String, Set<String>> g : ShiftExpectations.goals().entrySet()) if (g.getValue().contains(env)) expected.add(g.getKey());
        assertEquals(expected, seen, env);
    }
}
