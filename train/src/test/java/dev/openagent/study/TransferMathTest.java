package dev.openagent.study;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TransferMathTest {
    private static Map<String, Double> m(Object... kv) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) out.put((String) kv[i], ((Number) kv[i + 1]).doubleValue());
        return out;
    }

    /** Three environments trained in this order, and each one's score after each stage. */
    private static final List<String> ORDER = List.of("a", "b", "c");
    private static final List<Map<String, Double>> AFTER = List.of(
            m("a", 0.9, "b", 0.2, "c", 0.1),
            m("a", 0.7, "b", 0.8, "c", 0.3),
            m("a", 0.6, "b", 0.85, "c", 0.9));

    @Test
    void forgettingIsTheDropFromJustAfterAnEnvironmentsStageToTheEnd() {
        Map<String, Double> f = TransferMath.forgetting(ORDER, AFTER);
        assertEquals(m("a", 0.3, "b", -0.05), f); // b improved after its stage: negative forgetting
        assertEquals(0.125, TransferMath.mean(f.values()), 1e-9);
    }

    @Test
    void forwardTransferIsWhatEarlierStagesGaveBeforeTraining() {
        Map<String, Double> untrained = m("a", 0.0, "b", 0.05, "c", 0.0);
        assertEquals(m("b", 0.15, "c", 0.3), TransferMath.forwardTransfer(ORDER, AFTER, untrained));
    }

    @Test
    void gainsSubtractTheUntrainedPolicyPerTestEnvironmentAndSplitHeldInFromHeldOut() {
        Map<String, Map<String, Double>> matrix = new LinkedHashMap<>();
        matrix.put("a", m("a", 0.9, "b", 0.2));
        matrix.put("b", m("a", 0.1, "b", 0.7));
        Map<String, Map<String, Double>> g = TransferMath.gains(matrix, m("a", 0.1, "b", 0.0));
        assertEquals(m("a", 0.8, "b", 0.2), g.get("a"));
        assertEquals(m("a", 0.0, "b", 0.7), g.get("b"));
        assertEquals(0.75, TransferMath.heldIn(g), 1e-9);
        assertEquals(0.1, TransferMath.heldOut(g), 1e-9);
    }

    @Test
    void oneEnvironmentHasNoHeldOutCellAndEveryStageMustCoverEveryEnvironment() {
        Map<String, Map<String, Double>> g = Map.of("a", m("a", 0.5));
        assertNull(TransferMath.heldOut(g));
        assertThrows(IllegalArgumentException.class,
                () -> TransferMath.forgetting(List.of("a", "b"), List.of(m("a", 1), m("b", 1))));
        assertThrows(IllegalArgumentException.class, () -> TransferMath.forgetting(List.of("a", "b"), List.of(m("a", 1, "b", 1))));
    }
}
