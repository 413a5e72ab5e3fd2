package dev.openagent.shift.query;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * query.underspecified: a required detail is left out of the request (severity 1: one, 2: two,
 * 3: all of them); the simulated user behind {@code ask_user} knows it. Details whose removal would
 * make the request ambiguous are left to query.ambiguous when others exist.
 */
public final class Underspecified extends QueryShift {
    public static final Shift SHIFT = new Shift("query.underspecified", Tier.REASONING, Dimension.Q,
            "A required detail is missing from the request; ask the simulated user (ask_user) for it.",
            List.of(Shift.SEVERITY), Underspecified::new);

    private List<Detail> gone = List.of();

    private Underspecified(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        List<Detail> pool = new ArrayList<>(t.details().stream().filter(d -> !d.ambiguousWithout()).toList());
        if (pool.isEmpty()) pool = new ArrayList<>(t.details());
        int n = severity() == 3 ? pool.size() : Math.min(severity(), pool.size());
        List<Detail> chosen = new ArrayList<>();
        for (int i = 0; i < n; i++) chosen.add(pool.remove(rnd.nextInt(pool.size())));
        gone = chosen;
        return removed(t, chosen);
    }

    @Override
    public Guide guide() { return new AskingGuide(inner.guide(), this, gone); }

    /** Asks about every removed detail first, then follows the inner guide. */
    static final class AskingGuide extends LayerGuide {
        private final List<Detail> toAsk;
        private int asked;

        AskingGuide(Guide inner, QueryShift layer, List<Detail> toAsk) {
            super(inner, layer);
            this.toAsk = List.copyOf(toAsk);
        }

        @Override
        public Action next(Step last) {
            if (asked < toAsk.size()) return new Action.AskUser(question(toAsk.get(asked++)));
            return innerNext();
        }
    }
}
