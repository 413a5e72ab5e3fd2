package dev.openagent.shift.query;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Outcome;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;

import java.util.Optional;

/**
 * Another request of the same kind that the user asks for instead of the one the environment posed
 * ({@link EnvFacts#revised}), kept twice: as the environment posed it (its own id, by which the environment
 * knows its checks) and under the original's id and seed, as the episode records it (so the episode still pairs
 * with its static run). The shifts whose user changes the request (query.intent-drift, query.noisy-user) judge
 * the ending by it.
 */
record Revision(Task posed, Task revised) {

    /** The environment's revision of a solvable request, or empty when it poses none. */
    static Optional<Revision> of(EnvFacts facts, Task before, long seed) {
        if (!before.solvable()) return Optional.empty();
        return facts.revised(before, seed).map(t -> new Revision(t, keepIdentity(before, t)));
    }

    /**
     * The ending judged against the revised request. An ending the environment decided (tau2's transfer to a
     * human agent, on a tool call) is judged as an answer with no text of its own.
     */
    Step judged(EnvFacts facts, Action action, Step s) {
        Outcome.End end = s.outcome().end();
        if (end != Outcome.End.ANSWERED && end != Outcome.End.REFUSED) return s;
        Action ending = action instanceof Action.Answer || action instanceof Action.Refuse ? action
                : end == Outcome.End.REFUSED ? new Action.Refuse("") : new Action.Answer("");
        // Judged by the revised request's own answer and state checks (an environment file finds them by its task id).
        return s.withOutcome(Outcome.judge(posed, ending, answer -> facts.check(posed, answer)));
    }

    /** The revised request under the original's id and seed. */
    private static Task keepIdentity(Task original, Task t) {
        return new Task(original.id(), t.env(), t.split(), original.seed(), t.kind(), t.difficulty(), t.query(), t.plan(), t.solvable(),
                t.mustContain(), t.mustNotContain(), t.expect(), t.details(), t.userFacts(), t.writes());
    }
}
