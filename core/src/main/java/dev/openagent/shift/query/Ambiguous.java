package dev.openagent.shift.query;

import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;

import java.util.List;
import java.util.Map;

/**
 * query.ambiguous: the detail that singles out the entity is dropped (the task marks it with
 * {@code Detail.ambiguousWithout}, e.g. the city of a place with same-named twins elsewhere), so
 * several entities match; ask the user which one. Tasks with no such detail are left as they are.
 */
public final class Ambiguous extends QueryShift {
    public static final Shift SHIFT = new Shift("query.ambiguous", Tier.REASONING, Dimension.Q,
            "The detail that singles out the entity is dropped so several entities match; disambiguate with ask_user.",
            List.of(), Ambiguous::new);

    private List<Detail> gone = List.of();

    private Ambiguous(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        gone = t.details().stream().filter(Detail::ambiguousWithout).limit(1).toList();
        return removed(t, gone);
    }

    @Override
    public Guide guide() { return new Underspecified.AskingGuide(inner.guide(), this, gone); }
}
