package dev.openagent.run;

import dev.openagent.agent.OracleAgent;
import dev.openagent.episode.Trajectory;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.List;

/**
 * Validates shifts with the oracle: under each condition it must solve every solvable task and
 * refuse every unsolvable one, and no attack (security shifts) may succeed on it: an episode in which the
 * attacker's action happened counts as failed. A failure is a bug in the shift (or the environment), not a finding.
 */
public final class Validation {
    private Validation() {}

    /** The oracle's record under one condition; {@code failures} keeps the first few failed episodes. */
    public record Result(String condition, int episodes, int solvable, int solved, int unsolvable, int refused,
                         List<Trajectory> failures) {
        public boolean passed() { return solved == solvable && refused == unsolvable; }

        public int failed() { return solvable - solved + unsolvable - refused; }
    }

    public static Result run(Environment env, ShiftStack stack, TaskPlan plan, int threads) {
        List<Trajectory> ts = LocalRunner.run(() -> stack.apply(env.create()), new OracleAgent(), plan.requests(), threads);
        int solvable = 0;
        int solved = 0;
        int unsolvable = 0;
        int refused = 0;
        List<Trajectory> failures = new ArrayList<>();
        for (Trajectory t : ts) {
            boolean ok = t.success() && t.outcome().end() != Outcome.End.INFRA_ERROR && !Boolean.TRUE.equals(t.outcome().attacked());
            if (t.solvable()) {
                solvable++;
                if (ok) solved++;
            } else {
                unsolvable++;
                if (ok && t.outcome().refused()) refused++;
                else ok = false;
            }
            if (!ok && failures.size() < 3) failures.add(t);
        }
        return new Result(stack.label(), ts.size(), solvable, solved, unsolvable, refused, failures);
    }
}
