package dev.openagent.shift.task;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Protocol;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.Shift;
import dev.openagent.shift.ShiftEnv;
import dev.openagent.shift.TextVerbs;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.Commands;
import dev.openagent.sandbox.PlanGuide;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * task.unsolvable: the request has no valid completion; the right ending is a refusal (the
 * protocol's refusal marker), and any answer fails. The environment makes it impossible
 * realistically where it can (the ways its task kinds declare, {@code EnvFacts.unsolvable}: poi asks for a place that does not
 * exist, a date outside the bookable week, a booking that was never made, a city it does not
 * cover); otherwise the capability the task needs is absent: every tool its plan uses is gone (in a
 * text-command environment, every verb its commands use).
 * This layer scores the ending itself.
 */
public final class Unsolvable extends ShiftEnv<Unsolvable.Episode> {
    public static final Shift SHIFT = new Shift("task.unsolvable", Tier.INTERNALIZATION, Dimension.D,
            "No valid completion exists (the entity does not exist, the slot can never be booked, the capability is absent); the right ending is a refusal.",
            List.of(), Unsolvable::new);

    /** What this layer keeps during one episode (made afresh at every reset). */
    static final class Episode {
        final Set<String> hidden = new LinkedHashSet<>();
    }

    private Unsolvable(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params, Episode::new);
    }

    @Override
    protected Start begin(Start in) {
        Task t = inner.task();
        Optional<Task> variant = t.solvable() ? facts().unsolvable(t, seed()) : Optional.of(t);
        if (variant.isPresent()) {
            shiftedTask = variant.get();
            return in.withQuery(shiftedTask.query());
        }
        if (textCommand()) {
            // The verbs the task's commands use are gone from the help text and unknown.
            List<String> verbs = TextVerbs.verbs(inner.info());
            for (GoldPlan.Call c : t.plan().calls()) {
                String verb = TextVerbs.verbOf(Commands.normalize(c.args().path("text").asText("")), verbs);
                if (verb != null) ep.hidden.add(verb);
            }
        } else {
            t.plan().calls().stream().map(GoldPlan.Call::tool).filter(n -> !Protocol.ASK_USER.equals(n)).forEach(ep.hidden::add);
        }
        if (ep.hidden.isEmpty()) throw new IllegalStateException(t.id() + ": no way to make this task unsolvable (its plan calls no tool)");
        shiftedTask = t.unsolvable(t.query(), List.of(), "This service has no " + (textCommand() ? "command to " : "tool to ")
                + String.join(", ", ep.hidden).replace('_', ' ') + ", which the request needs.", t.details());
        return in.withTools(in.tools().stream().filter(x -> !ep.hidden.contains(x.name())).toList());
    }


    @Override
    protected Route route(Action.ToolCall call) {
        if (!ep.hidden.contains(call.name())) return new Forward(call);
        return new Reply(unknownTool(call));
    }

    @Override
    protected Step act(Action action) {
        Step s = hidingCommands(action, ep.hidden, super::act);
        if (!s.done() || (s.outcome().end() != Outcome.End.ANSWERED && s.outcome().end() != Outcome.End.REFUSED)) return s;
        // An ending the environment decided counts as the one it stands for (tau2's transfer to a human agent: an answer).
        Outcome scored = s.outcome().end() == Outcome.End.REFUSED
                ? new Outcome(true, Outcome.End.REFUSED, "correctly refused an unsolvable task")
                : new Outcome(false, Outcome.End.ANSWERED, "answered an unsolvable task (" + shiftedTask.plan().answerTemplate() + ")");
        return s.withOutcome(scored);
    }

    @Override
    public Guide guide() { return new PlanGuide(task()); }
}
