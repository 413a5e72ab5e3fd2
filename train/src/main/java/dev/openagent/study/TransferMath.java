package dev.openagent.study;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The arithmetic of the cross-environment studies, on success rates in [0, 1]. Names follow the
 * continual-learning literature (GEM, Lopez-Paz and Ranzato 2017): with R[s][e] the success on
 * environment e after training stage s and b[e] the untrained policy's,
 * <ul>
 *   <li>forgetting of the environment trained at stage i: R[i][e_i] - R[last][e_i] (positive: it was forgotten);</li>
 *   <li>forward transfer to the environment trained at stage i &gt; 0: R[i-1][e_i] - b[e_i], what the earlier
 *       stages gave it before it was trained on;</li>
 *   <li>gain of a policy trained on environment t, tested on e: R[t][e] - b[e]; held-in when t = e, held-out otherwise.</li>
 * </ul>
 */
public final class TransferMath {
    private TransferMath() {}

    /** Success after each stage: {@code afterStage.get(i)} maps a test environment to its success after stage i. */
    public static Map<String, Double> forgetting(List<String> order, List<Map<String, Double>> afterStage) {
        check(order, afterStage);
        Map<String, Double> out = new LinkedHashMap<>();
        Map<String, Double> last = afterStage.getLast();
        for (int i = 0; i < order.size() - 1; i++) {
            String e = order.get(i);
            out.put(e, round(afterStage.get(i).get(e) - last.get(e)));
        }
        return out;
    }

    public static Map<String, Double> forwardTransfer(List<String> order, List<Map<String, Double>> afterStage, Map<String, Double> untrained) {
        check(order, afterStage);
        Map<String, Double> out = new LinkedHashMap<>();
        for (int i = 1; i < order.size(); i++) {
            String e = order.get(i);
            out.put(e, round(afterStage.get(i - 1).get(e) - untrained.get(e)));
        }
        return out;
    }

    /** {@code matrix[train][test] - untrained[test]} for every cell. */
    public static Map<String, Map<String, Double>> gains(Map<String, Map<String, Double>> matrix, Map<String, Double> untrained) {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        matrix.forEach((train, row) -> {
            Map<String, Double> g = new LinkedHashMap<>();
            row.forEach((test, v) -> g.put(test, round(v - untrained.get(test))));
            out.put(train, g);
        });
        return out;
    }

    /** Mean gain where the test environment is the training one (null when there is none). */
    public static Double heldIn(Map<String, Map<String, Double>> gains) {
        return mean(gains.entrySet().stream().filter(r -> r.getValue().containsKey(r.getKey()))
                .map(r -> r.getValue().get(r.getKey())).toList());
    }

    /** Mean gain where the test environment differs from the training one (null when there is none). */
    public static Double heldOut(Map<String, Map<String, Double>> gains) {
        return mean(gains.entrySet().stream().flatMap(r -> r.getValue().entrySet().stream()
                .filter(c -> !c.getKey().equals(r.getKey())).map(Map.Entry::getValue)).toList());
    }

    /** The mean, or null for no values. */
    public static Double mean(Collection<Double> values) {
        return values.isEmpty() ? null : round(values.stream().mapToDouble(Double::doubleValue).average().orElseThrow());
    }

    private static void check(List<String> order, List<Map<String, Double>> afterStage) {
        if (order.size() != afterStage.size()) throw new IllegalArgumentException(order.size() + " stages but " + afterStage.size() + " evaluations");
        for (Map<String, Double> s : afterStage) {
            if (!s.keySet().containsAll(order)) throw new IllegalArgumentException("a stage was not evaluated on every environment of " + order);
        }
    }

    static double round(double v) { return Math.round(v * 10000) / 10000.0; }
}
