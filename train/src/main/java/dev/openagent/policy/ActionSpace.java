package dev.openagent.policy;

import dev.openagent.json.Json;
import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.util.Arrays;
import java.util.List;

/**
 * What the policy's action space can express at all: the oracle's way through an episode, each gold
 * action turned into pointer targets ({@link Policy#target}) and decoded as if the network had output
 * exactly those targets. An episode is expressible when every gold action has targets, every decoded
 * action is the gold one and the episode succeeds. A pointer policy copies what it reads, so an episode
 * that needs a value it never reads (the true spelling behind a typo, a date rewritten in a new format)
 * or a tool named only in an observation is not. The share of expressible tasks is the ceiling of any
 * policy with this configuration under a condition, whatever its weights.
 */
public final class ActionSpace {
    private ActionSpace() {}

    /** How the replay of an episode ended. */
    public enum Kind {
        /** Every gold action was expressed and the episode succeeded. */
        EXPRESSED,
        /** A gold action has no pointer targets (a tool not in the list shown, several calls at once...). */
        NOT_EXPRESSIBLE,
        /** A gold action has targets, but decoding them gives another action (a value copied differently). */
        DIVERGED,
        /** Every action was the gold one, yet the episode failed (an answer word the policy cannot say...). */
        FAILED
    }

    /** The end of one replay: its kind and, unless expressed, what went wrong (abbreviated). */
    public record Replay(Kind kind, String detail) {
        public boolean expressed() { return kind == Kind.EXPRESSED; }
    }

    /** A condition's ceiling: of {@code tasks} tasks, how many are expressible. */
    public record Ceiling(int expressible, int tasks) {
        public double rate() { return tasks == 0 ? 0 : Math.round(10000.0 * expressible / tasks) / 10000.0; }
    }

    /** Replays the oracle's way through one episode through the policy's pointers. */
    public static Replay replay(Policy policy, Env env, TaskRequest request) {
        Start start = env.reset(request);
        Guide oracle = env.guide();
        View view = View.start(start);
        Step last = null;
        while (last == null || !last.done()) {
            Action gold = oracle.next(last);
            Context x = policy.encode(view);
            var d = Targets.of(x, gold, env.task(), policy.config());
            if (d.isEmpty()) return new Replay(Kind.NOT_EXPRESSIBLE, abbreviate(gold.toString()));
            Action mine = decode(policy, x, d.get());
            if (gold instanceof Action.CallTools g) {
                if (!(mine instanceof Action.CallTools m && sameCall(g, m))) return new Replay(Kind.DIVERGED, abbreviate(gold + " vs " + mine));
                // The guide finds its results by its own call ids; the policy numbers calls its own way.
                mine = Action.CallTools.of(g.calls().getFirst().id(), m.calls().getFirst().name(), m.calls().getFirst().arguments());
            }
            last = env.step(mine);
            view = view.after(mine, last);
        }
        return last.outcome().success() ? new Replay(Kind.EXPRESSED, "") : new Replay(Kind.FAILED, abbreviate(String.valueOf(last.outcome().detail())));
    }

    /** How many of these tasks of the environment, under the shift stack, the policy can express. */
    public static Ceiling ceiling(Policy policy, Environment environment, ShiftStack stack, List<TaskRequest> requests) {
        Env env = stack.apply(environment.create());
        int ok = 0;
        for (TaskRequest r : requests) if (replay(policy, env, r).expressed()) ok++;
        return new Ceiling(ok, requests.size());
    }

    /** The action the policy takes when its outputs are exactly the decision's targets (target positions high, the rest low). */
    static Action decode(Policy p, View view, Decision d) {
        return decode(p, p.encode(view), d);
    }

    private static Action decode(Policy p, Context x, Decision d) {
        Batch b = new Batch(List.of(x), p.config(), p.vocabulary());
        b.withParams(new int[]{d instanceof Decision.Call c ? c.tool() : -1});
        Labels y = new Labels(b, List.of(d), new float[]{1});
        float[] present = new float[y.present.length];
        for (int i = 0; i < present.length; i++) present[i] = y.present[i] > 0 ? 10 : -10;
        int la = b.l + b.a;
        float[] answer = new float[la];
        Arrays.fill(answer, -10);
        for (int g = 0; g < y.groups; g++) for (int i = 0; i < la; i++) if (y.answerGroups[g * la + i] > 0) answer[i] = 10;
        Policy.Logits logits = new Policy.Logits(y.action, present, y.span, y.enumTarget, answer, y.ask);
        return p.decode(x, b, 0, d.actionIndex(b.tMax), logits, null).action();
    }

    private static boolean sameCall(Action.CallTools a, Action.CallTools b) {
        if (a.calls().size() != 1 || b.calls().size() != 1) return false;
        var x = a.calls().getFirst();
        var y = b.calls().getFirst();
        return x.name().equals(y.name()) && Json.parse(x.arguments()).equals(Json.parse(y.arguments()));
    }

    private static String abbreviate(String s) { return s.length() > 160 ? s.substring(0, 157) + "..." : s; }
}
