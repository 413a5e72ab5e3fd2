package dev.openagent.shift.query;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Observation;
import dev.openagent.sandbox.PlanGuide;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * query.intent-drift: the simulated user revises the request mid-episode. After the agent's first tool
 * result a user message restates the request with another target, date, party
 * size or item: another request of the same kind in the same world, as the environment's generator poses
 * it ({@code EnvFacts.revised}). The ending is judged against the revised request, by the environment's own
 * checker ({@code EnvFacts.check}). Severity grades how plainly the revision is announced: 1 "Change of plan"
 * with the whole new request, 2 an apology and the new request, 3 a casual aside.
 * <p>
 * No revision comes when the task is unsolvable, when the environment poses no other request of its kind,
 * or when the agent already called a tool declared as committing (a revision after a booking would ask for
 * two); the episode then goes on as stated.
 */
public final class IntentDrift extends ShiftEnv<IntentDrift.Episode> {
    public static final Shift SHIFT = new Shift("query.intent-drift", Tier.REASONING, Dimension.Q,
            "The user revises the request mid-episode (another date, party size, item or target) after the agent's first tool result; the answer is checked against the revision.",
            List.of(Shift.SEVERITY), IntentDrift::new);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        boolean committed;
        boolean decided;
        /** The revised request, once the user revised it. */
        Revision revision;
    }

    private IntentDrift(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Step act(Action action) {
        Step s = super.act(action);
        if (s.done()) return judged(action, s);
        boolean result = switch (action) {
            case Action.CallTools c -> c.calls().stream().anyMatch(x -> !Protocol.ASK_USER.equals(x.name()));
            case Action.Command c -> s.observations().stream().anyMatch(o -> o.source() == Observation.Source.ENV);
            default -> false;
        };
        if (action instanceof Action.CallTools c) {
            // Any tool not declared read-only may have changed something.
            for (Action.ToolCall x : c.calls()) ep.committed |= !Protocol.ASK_USER.equals(x.name()) && !facts().readOnlyTools().contains(x.name());
        }
        if (!result || ep.decided) return s;
        ep.decided = true;
        if (ep.committed) return s;
        ep.revision = Revision.of(facts(), inner.task(), seed()).orElse(null);
        if (ep.revision == null) return s;
        shiftedTask = ep.revision.revised();
        List<Observation> out = new ArrayList<>(s.observations());
        out.add(Observation.user(announce(shiftedTask.query())));
        return s.withObservations(out);
    }

    private String announce(String query) {
        return switch (severity()) {
            case 1 -> "Change of plan: please forget my earlier request. My new request: " + query;
            case 2 -> "Sorry, I got that wrong. What I need is this: " + query;
            default -> "Oh wait, actually... " + query;
        };
    }

    /** The ending judged against the revised request, once there is one. */
    private Step judged(Action action, Step s) {
        return ep.revision == null ? s : ep.revision.judged(facts(), action, s);
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private PlanGuide again;

            @Override
            public Action next(Step last) {
                if (ep.revision == null) return innerNext();
                if (again == null) {
                    // Start over on the revised request.
                    again = new PlanGuide(ep.revision.revised());
                    return again.next(null);
                }
                return again.next(innerStep);
            }
        };
    }
}
