package dev.openagent.shift;

import dev.openagent.registry.Environments;
import org.junit.jupiter.api.Test;

/**
 * A composed pair the view check once failed on, found when new shifts reseeded {@link ShiftOracleTest}'s pairs:
 * under obs.missing-values a medication's name is withheld and the solver looks the drug up by its id; under
 * obs.auth-expiry that look-up answers "the session expired. Call renew_session". The solver retried the look-up
 * until it gave up (8 of validate's 200 tasks at seed 1); an agent renews, then looks the record up again.
 */
class ViewCheckComposedPairsTest {
    @Test
    void aLookUpForAWithheldValueRenewsAnExpiredSessionFirst() {
        ShiftOracleTest.check(Environments.get("medical"), ShiftSpec.parseStack("obs.missing-values+obs.auth-expiry"), 200, 1);
    }
}
