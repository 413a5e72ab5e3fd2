package dev.openagent.shift.obs;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Step;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Sign;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * obs.malformed-output: a result arrives truncated or as invalid JSON (single quotes, a trailing comma,
 * unquoted keys, two documents run together), as a flaky transport or serializer delivers it; the same
 * call succeeds on retry. It reaches only turns whose calls all look things up (tools declared read-only,
 * or any tool of a task that writes nothing), since retrying a committing call would commit twice, and only results
 * that are JSON documents (a text result has no syntax to break: cut short it would just read as less text). A turn
 * is hit with probability 0.2 / 0.35 / 0.5 (severity 1-3), at most 1 / 2 / 3 times in a row for the same tool.
 */
public final class MalformedOutput extends RetryableShift {
    public static final Shift SHIFT = new Shift("obs.malformed-output", Tier.INTERACTION, Dimension.O,
            "A result arrives truncated or as invalid JSON; the same call succeeds on retry.",
            List.of(Shift.SEVERITY), info -> Shift.needsTools(info, "the results malformed are JSON documents, and commands answer in prose"),
            MalformedOutput::new).seenAs(Sign.MALFORMED_RESULTS);

    private MalformedOutput(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Step act(Action action) {
        Step s = super.act(action);
        if (!(action instanceof Action.CallTools c) || s.done() || !lookups(c)) return s;
        // The first JSON result of the turn is the one that may arrive broken. Its tool's streak counts only turns
        // that had such a result: an error in between (an expired token under logic.extra-prerequisite, say) neither
        // draws nor ends it, so every tool gets a clean answer within severity + 1 answers, however many calls each
        // retry costs in the layers inside.
        int target = -1;
        for (int i = 0; i < s.observations().size() && target < 0; i++) {
            Observation o = s.observations().get(i);
            if (o.source() == Observation.Source.TOOL && !o.isError() && o.payload() != null && o.payload().isContainerNode()) target = i;
        }
        if (target < 0) return s;
        Observation broken = s.observations().get(target);
        if (!ep.strikes(broken.tool(), rnd, severity())) return s;
        hit(broken.tool());
        List<Observation> out = new ArrayList<>(s.observations());
        out.set(target, new Observation(broken.source(), broken.callId(), broken.tool(), corrupt(broken.text(), rnd), null, null));
        return s.withObservations(out);
    }

    /** Whether every call of the turn only looks things up, so a retry changes nothing. */
    private boolean lookups(Action.CallTools c) {
        boolean writes = inner.task().writes();
        return c.calls().stream().allMatch(x -> !Protocol.ASK_USER.equals(x.name())
                && (!writes || facts().tool(x.name()).map(f -> f.readOnly()).orElse(false)));
    }

    /**
     * The JSON text broken one of the ways real transports and serializers break it. A form that would leave this text
     * as it was (single quotes on a text without any, unquoted keys on an array of numbers) falls back to cutting it
     * short, so a hit is always an answer the agent can see is broken.
     */
    static String corrupt(String json, SplittableRandom rnd) {
        String broken = switch (rnd.nextInt(4)) {
            case 0 -> truncated(json, rnd);
            case 1 -> json.replace('"', '\'');                                                          // single quotes
            case 2 -> json.replaceAll("\"([A-Za-z_][A-Za-z0-9_]*)\":", "$1:");                          // unquoted keys
            default -> json.length() > 1 && (json.endsWith("}") || json.endsWith("]"))
                    ? json.substring(0, json.length() - 1) + "," + json.charAt(json.length() - 1) + "\n" + json.substring(0, Math.min(json.length(), 12))
                    : json + "}";                                                                        // trailing comma and a stray fragment
        };
        return broken.equals(json) ? truncated(json, rnd) : broken;
    }

    /** Cut mid-document (a container's text is at least two characters, so at least its last one goes). */
    private static String truncated(String json, SplittableRandom rnd) {
        return json.substring(0, Math.max(1, json.length() * (40 + rnd.nextInt(30)) / 100));
    }
}
