package dev.openagent.policy;

import java.util.Arrays;
import java.util.List;

/**
 * Decisions laid out over a {@link Batch} as the loss reads them: additive target masks (0 on a
 * correct choice, {@link Batch#MASKED} elsewhere) for the softmax pointers, 0/1 labels for the
 * sigmoid ones, and a per-example weight (1 for cloning, the advantage for policy gradient).
 */
final class Labels {
    final float[] weight;
    final float[] action;       // [b * (tMax + 3)] additive
    final float[] actionOn;     // [b]
    final float[] present;      // [b * pMax] 0/1
    final float[] presentOn;    // [b * pMax]
    final float[] enumTarget;   // [b * pMax * kMax] additive
    final float[] enumOn;       // [b * pMax]
    /** Target spans [b * pMax * l * maxSpan], additive: 0 at (start, length - 1) of a correct span. */
    final float[] span;
    final float[] spanOn;       // [b * pMax]
    final int groups;
    final float[] answerGroups; // [b * groups * (l + a)] 0/1
    final float[] groupOn;      // [b * groups]
    final float[] answerNeg;    // [b * (l + a)] 0/1
    final float[] answerOn;     // [b]
    final float[] ask;          // [b * zMax] additive
    final float[] askOn;        // [b]

    Labels(Batch x, List<Decision> decisions, float[] weights) {
        int b = x.b;
        int t3 = x.tMax + 3;
        int la = x.l + x.a;
        weight = weights.clone();
        action = filled(b * t3);
        actionOn = new float[b];
        present = new float[b * x.pMax];
        presentOn = new float[b * x.pMax];
        enumTarget = filled(b * x.pMax * x.kMax);
        enumOn = new float[b * x.pMax];
        int maxSpan = x.c.maxSpanTokens();
        span = filled(b * x.pMax * x.l * maxSpan);
        spanOn = new float[b * x.pMax];
        groups = Math.max(1, decisions.stream().mapToInt(d -> d instanceof Decision.Answer ans ? ans.groups().size() : 0).max().orElse(1));
        answerGroups = new float[b * groups * la];
        groupOn = new float[b * groups];
        answerNeg = new float[b * la];
        answerOn = new float[b];
        ask = filled(b * x.zMax);
        askOn = new float[b];
        for (int e = 0; e < b; e++) {
            Decision d = decisions.get(e);
            if (d == null) continue;
            action[e * t3 + d.actionIndex(x.tMax)] = 0;
            actionOn[e] = 1;
            switch (d) {
                case Decision.Call call -> {
                    if (x.chosen == null || x.chosen[e] != call.tool()) {
                        throw new IllegalStateException("labels need the batch's phase two on the decided tool");
                    }
                    for (Decision.Arg arg : call.args()) {
                        int row = e * x.pMax + arg.param();
                        if (arg.param() >= x.pMax || x.paramMask[row] == 0) continue;
                        boolean required = x.paramType[row * Batch.TYPE_FEATURES + 5] == 1;
                        if (!required) {
                            present[row] = arg.present() ? 1 : 0;
                            presentOn[row] = 1;
                        }
                        if (!arg.present()) continue;
                        if (arg.enumValues().length > 0) {
                            for (int v : arg.enumValues()) if (v < x.kMax) enumTarget[row * x.kMax + v] = 0;
                            enumOn[row] = 1;
                        } else if (arg.starts().length > 0) {
                            for (int i = 0; i < arg.starts().length; i++) {
                                int len = arg.ends()[i] - arg.starts()[i];
                                if (len >= 0 && len < maxSpan) span[(row * x.l + arg.starts()[i]) * maxSpan + len] = 0;
                            }
                            spanOn[row] = 1;
                        }
                    }
                }
                case Decision.Answer ans -> {
                    answerOn[e] = 1;
                    int n = x.contexts.get(e).n;
                    for (int i = 1; i < n; i++) answerNeg[e * la + i] = 1;
                    for (int k = 0; k < x.a; k++) answerNeg[e * la + x.l + k] = 1;
                    for (int gi = 0; gi < ans.groups().size(); gi++) {
                        Decision.Group g = ans.groups().get(gi);
                        int base = (e * groups + gi) * la;
                        for (int i : g.tokens()) {
                            answerGroups[base + i] = 1;
                            answerNeg[e * la + i] = 0;
                        }
                        for (int k : g.words()) {
                            answerGroups[base + x.l + k] = 1;
                            answerNeg[e * la + x.l + k] = 0;
                        }
                        groupOn[e * groups + gi] = 1;
                    }
                }
                case Decision.Ask q -> {
                    if (q.topics().length > 0) {
                        for (int z : q.topics()) ask[e * x.zMax + z] = 0;
                        askOn[e] = 1;
                    }
                }
                case Decision.Refuse r -> { }
            }
        }
    }

    private static float[] filled(int n) {
        float[] a = new float[n];
        Arrays.fill(a, Batch.MASKED);
        return a;
    }
}
