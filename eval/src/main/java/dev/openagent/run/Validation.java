package dev.openagent.run;

import dev.openagent.oracle.OracleAgent;
import dev.openagent.episode.Agent;
import dev.openagent.episode.Trajectory;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Outcome;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Validates shifts: under each condition a solver must solve every solvable task and refuse every unsolvable one,
 * and no attack (security shifts) may succeed on it: an episode in which the attacker's action happened counts as
 * failed. Two solvers: the oracle, which follows the gold plan through every layer's privileged guide (the shift is
 * consistent), and the view-only solver, which must carry the plan out from what the agent is shown alone (the
 * shifted task is solvable from the agent's view; {@link ViewSolver}). A failure is a bug in the shift (or the
 * environment), not a finding.
 */
public final class Validation {
    private Validation() {}

    /** The oracle's record under one condition; {@code failures} keeps the first few failed episodes. */
    public record Result(String condition, Solver solver, int episodes, int solvable, int solved, int unsolvable, int refused,
                         List<Trajectory> failures) {
        public boolean passed() { return solved == solvable && refused == unsolvable; }

        public int failed() { return solvable - solved + unsolvable - refused; }
    }

    /** Which solver validates. */
    public enum Solver {
        /** The oracle: follows the privileged guide of every layer. */
        ORACLE,
        /** The view-only solver: only what the agent is shown. */
        VIEW
    }

    /** The oracle under one condition. */
    public static Result run(Environment env, ShiftStack stack, TaskPlan plan, int threads) {
        return run(env, stack, plan, threads, Solver.ORACLE);
    }

    public static Result run(Environment env, ShiftStack stack, TaskPlan plan, int threads, Solver solver) {
        Supplier<Env> envs = solver == Solver.ORACLE ? () -> stack.apply(env.create()) : () -> ViewSolver.watched(stack, env.create());
        Agent agent = solver == Solver.ORACLE ? new OracleAgent() : new ViewSolver();
        List<Trajectory> ts = LocalRunner.run(envs, agent, plan.requests(), threads);
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
        return new Result(stack.label(), solver, ts.size(), solvable, solved, unsolvable, refused, failures);
    }

    /**
     * Why an episode failed, in one line: what the view-only solver found missing (its final answer), else the
     * outcome's own detail.
     */
    public static String why(Trajectory t) {
        return ViewSolver.finding(t).orElse(t.outcome().end() + " " + t.outcome().detail());
    }
}
