package dev.openagent.shift.query;

import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * query.redundant: irrelevant or distracting sentences around the request. Severity 1 adds one,
 * 2 two (before and after), 3 four, including the environment's distracting ones
 * ({@code EnvFacts.distractions}: other places, times and names of the same world).
 */
public final class Redundant extends QueryShift {
    public static final Shift SHIFT = new Shift("query.redundant", Tier.PERCEPTION, Dimension.Q,
            "Irrelevant or distracting details added to the request.",
            List.of(Shift.SEVERITY), Redundant::new);

    private static final List<String> GENERIC = List.of(
            "I'm planning a trip with my family soon.",
            "My phone battery is almost dead, so please be quick.",
            "I have a dentist appointment at 15:00 on Friday, so my week is busy.",
            "Last year I paid about 40 dollars for something similar.",
            "My colleague Sam Porter recommended this service to me.",
            "By the way, the weather has been lovely lately.",
            "I asked about this yesterday but got distracted.",
            "I usually prefer places with outdoor seating, but that doesn't matter today.",
            "My old account number was 4471, in case that matters.",
            "I'm writing from my office, so replies may take me a while.");

    private Redundant(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        int n = switch (severity()) { case 1 -> 1; case 2 -> 2; default -> 4; };
        List<String> pool = new ArrayList<>(GENERIC);
        List<String> special = new ArrayList<>(facts().distractions(t, seed()));
        List<String> chosen = new ArrayList<>();
        if (severity() >= 2 && !special.isEmpty()) chosen.add(special.remove(rnd.nextInt(special.size())));
        if (severity() >= 3 && !special.isEmpty()) chosen.add(special.remove(rnd.nextInt(special.size())));
        while (chosen.size() < n) chosen.add(pool.remove(rnd.nextInt(pool.size())));
        List<String> before = new ArrayList<>();
        List<String> after = new ArrayList<>();
        for (int i = 0; i < chosen.size(); i++) (i % 2 == 1 ? before : after).add(chosen.get(i));
        String q = String.join(" ", before) + (before.isEmpty() ? "" : " ") + t.query() + (after.isEmpty() ? "" : " ") + String.join(" ", after);
        return t.withQuery(q.strip());
    }
}
