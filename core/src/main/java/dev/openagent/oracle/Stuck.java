package dev.openagent.oracle;

/** Why the view solver cannot go on: what was missing (its final answer, after {@link ViewSolver#FAILED}). */
final class Stuck extends RuntimeException {
    Stuck(String why) {
        super(why, null, false, false);
    }
}
