package dev.openagent.policy;

import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftSpec;
import dev.openagent.shift.ShiftStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PAFT's recovery demonstrations are the oracle's way through each shift: this replays them
 * through the policy's pointers (targets decoded as if the network had output them) and reports,
 * per shift, how many demonstrated episodes the pointer action space can express in full. A
 * pointer policy copies what it reads, so demonstrations that need a value it never reads (the
 * true spelling behind a typo in query.noise, a date rewritten in a new format under
 * domain.policy-update, a constant such as a search radius under tool.removal) are not expressible.
 */
class ShiftReplayTest {
    static Policy policy;

    @BeforeAll
    static void create() {
        policy = TargetsTest.untrained();
    }

    @AfterAll
    static void close() { policy.close(); }

    @Test
    void mostShiftedDemonstrationsReplayThroughThePointers() {
        var poi = Environments.get("poi");
        Map<String, String> table = new LinkedHashMap<>();
        int expressible = 0;
        int shifts = 0;
        for (Shift s : ShiftSampler.catalog(poi.info()).shifts()) {
            ShiftStack stack = ShiftSpec.parseStack(s.id());
            int ok = 0;
            int n = 30;
            String why = "";
            for (int i = 0; i < n; i++) {
                Env env = stack.apply(poi.create());
                String problem = replay(env, new TaskRequest(Split.TRAIN, Seeds.mix(17, i), 0));
                if (problem == null) ok++;
                else if (why.isEmpty()) why = problem;
            }
            shifts++;
            if (ok >= n * 0.8) expressible++;
            table.put(s.id(), ok + "/" + n + (why.isEmpty() ? "" : "  e.g. " + why));
        }
        table.forEach((k, v) -> System.out.printf("%-28s %s%n", k, v));
        assertTrue(expressible >= shifts * 2 / 3, "most shifts' demonstrations are expressible: " + table);
    }

    /** Null when the replayed episode succeeds, else what went wrong. */
    static String replay(Env env, TaskRequest request) {
        Start start = env.reset(request);
        Guide oracle = env.guide();
        View view = View.start(start);
        Step last = null;
        while (last == null || !last.done()) {
            Action gold = oracle.next(last);
            var d = policy.target(view, gold, env.task());
            if (d.isEmpty()) return "not expressible: " + abbreviate(gold.toString());
            Action mine = TargetsTest.replay(policy, view, d.get());
            if (gold instanceof Action.CallTools g) {
                if (!(mine instanceof Action.CallTools m && sameCall(g, m))) return "diverged: " + abbreviate(gold + " vs " + mine);
                // The guide finds its results by its own call ids; the policy numbers calls its own way.
                mine = Action.CallTools.of(g.calls().getFirst().id(), m.calls().getFirst().name(), m.calls().getFirst().arguments());
            }
            last = env.step(mine);
            view = view.after(mine, last);
        }
        return last.outcome().success() ? null : abbreviate(last.outcome().detail());
    }

    private static boolean sameCall(Action.CallTools a, Action.CallTools b) {
        if (a.calls().size() != 1 || b.calls().size() != 1) return false;
        var x = a.calls().getFirst();
        var y = b.calls().getFirst();
        return x.name().equals(y.name())
                && dev.openagent.json.Json.parse(x.arguments()).equals(dev.openagent.json.Json.parse(y.arguments()));
    }

    private static String abbreviate(String s) { return s.length() > 110 ? s.substring(0, 107) + "..." : s; }
}
