package dev.openagent.shift;

import dev.openagent.episode.Episodes;
import dev.openagent.episode.Trajectory;
import dev.openagent.oracle.ViewSolver;
import dev.openagent.sandbox.Environment;
import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Composed pairs the view check once failed on. The first was found when new shifts reseeded {@link ShiftOracleTest}'s pairs:
 * under obs.missing-values a medication's name is withheld and the solver looks the drug up by its id; under
 * obs.auth-expiry that look-up answers "the session expired. Call renew_session". The solver retried the look-up
 * until it gave up (8 of validate's 200 tasks at seed 1); an agent renews, then looks the record up again.
 */
class ViewCheckComposedPairsTest {
    @Test
    void aLookUpForAWithheldValueRenewsAnExpiredSessionFirst() {
        ShiftOracleTest.check(Environments.get("medical"), ShiftSpec.parseStack("obs.missing-values+obs.auth-expiry"), 200, 1);
    }

    /**
     * Under logic.extra-prerequisite:3 a token is good for 3 calls; under obs.malformed-output:3 up to 3 answers in a row
     * arrive broken, and each retry spends a call of the token. The streak used to end at the 401 that followed, so a
     * look-up could stay broken token after token, and a token cut short was sent as it was (4 of 200 tasks at seed 1).
     * Now a tool's streak counts only its own answers, and a broken token is asked for again.
     */
    @Test
    void retriesThatSpendATokenStillGetACleanAnswer() {
        ShiftOracleTest.check(Environments.get("poi"),
                ShiftSpec.parseStack("logic.extra-prerequisite:severity=3+obs.malformed-output:severity=3"), 200, 1);
    }

    /**
     * Retry layers multiply: under obs.runtime-error:3 each of obs.malformed-output:3's up to four answers may come after
     * three failures, 16 tries of one call; the view check gave up at 12 (medical, 1 of validate's 100 tasks at seed 1:
     * this one).
     */
    @Test
    void composedRetryLayersAreRetriedThrough() {
        ShiftStack stack = ShiftSpec.parseStack("obs.runtime-error:severity=3+obs.malformed-output:severity=3");
        Environment medical = Environments.get("medical");
        Trajectory seen = Episodes.run(ViewSolver.watched(stack, medical.create()), new ViewSolver(),
                new TaskRequest(Split.TEST, 8091054766216655870L, 0));
        assertTrue(ViewSolver.solved(seen), () -> ViewSolver.finding(seen).orElse(seen.outcome().toString()));
    }
}
