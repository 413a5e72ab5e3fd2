package dev.openagent.envs.kit;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Helpers for the ways environments declare to make a task impossible or restate it, one value of
 * the request at a time (see {@link dev.openagent.domain.TaskKind}).
 */
public final class TaskVariants {
    private TaskVariants() {}

    /**
     * The details with a value replaced in their spans and replies; {@code clearAmbiguity} when the new
     * value matches nothing, so that leaving it out no longer leaves several candidates.
     */
    public static List<Detail> replaceInDetails(List<Detail> details, String from, String to, boolean clearAmbiguity) {
        return details.stream().map(d -> new Detail(d.key(), d.span().replace(from, to), d.keywords(), d.reply().replace(from, to),
                !clearAmbiguity && d.ambiguousWithout())).toList();
    }

    /**
     * The plan's calls up to and including the first that has the argument {@code param}, with that
     * argument set to {@code value}: the probes that run into the impossible value. Empty when no call has it.
     */
    public static List<GoldPlan.Call> probesUntil(GoldPlan plan, String param, String value) {
        List<GoldPlan.Call> probes = new ArrayList<>();
        for (GoldPlan.Call c : plan.calls()) {
            ObjectNode a = c.args();
            if (a.has(param)) {
                a.put(param, value);
                probes.add(new GoldPlan.Call(c.tool(), a, c.refs()));
                return probes;
            }
            probes.add(c);
        }
        return List.of();
    }

    /** Whether the text holds the value exactly once. */
    public static boolean once(String text, String value) {
        int at = text.indexOf(value);
        return at >= 0 && text.indexOf(value, at + 1) < 0;
    }
}
