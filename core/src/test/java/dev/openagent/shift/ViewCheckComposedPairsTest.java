package dev.openagent.shift;

import dev.openagent.registry.Environments;
import org.junit.jupiter.api.Test;

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
}
