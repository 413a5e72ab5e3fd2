package dev.openagent.shift.query;

import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;
import dev.openagent.sandbox.EnvFacts.Rewrite;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * query.paraphrase: the same request in other words and another structure. Severity 1 rewrites
 * how the request opens ("What is X?" -> "Could you tell me what X is?"); 2 also rewords phrases
 * (the environment's vocabulary, {@code EnvFacts.paraphrases()}) and adds a greeting; 3 also moves the
 * details to a list after the request. Values (names, dates, codes) are never touched.
 */
public final class Paraphrase extends QueryShift {
    public static final Shift SHIFT = new Shift("query.paraphrase", Tier.PERCEPTION, Dimension.Q,
            "Same intent, different wording and sentence structure.",
            List.of(Shift.SEVERITY), Paraphrase::new);

    /** Generic openers: how English requests commonly start, and another way to say the same. */
    private static final List<Rewrite> OPENERS = List.of(
            new Rewrite("^What is (.+)\\?$", "Could you tell me what $1 is?"),
            new Rewrite("^What are (.+)\\?$", "Could you tell me what $1 are?"),
            new Rewrite("^When is (.+)\\?$", "Do you know when $1 is?"),
            new Rewrite("^How many (.+)\\?$", "Can you count how many $1?"),
            new Rewrite("^I need (.+)\\.$", "Could you find $1 for me?"),
            new Rewrite("^Book (.+)\\.$", "Please reserve $1."),
            new Rewrite("^Please cancel (.+)$", "I would like to cancel $1"),
            new Rewrite("^Cancel (.+)$", "I would like to cancel $1"),
            new Rewrite("^I'm at ([^.?]+)\\. (.+)$", "$2 (I am at $1 right now.)"),
            new Rewrite("^I'll be at ([^.?]+)\\. (.+)$", "$2 For reference, I will be at $1."),
            new Rewrite("^Find (.+)\\.$", "Please look up $1."),
            new Rewrite("^Show (.+)\\.$", "I'd like to see $1."));

    private static final List<String> GREETINGS = List.of("Hello! ", "Hi there, I hope you can help. ", "Good morning. ",
            "Hey, quick request. ");

    private Paraphrase(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        String q = t.query();
        List<Detail> moved = new ArrayList<>();
        if (severity() >= 3) {
            for (Detail d : t.details()) {
                if (moved.size() < 3 && !d.ambiguousWithout() && d.span().strip().contains(" ") && q.contains(d.span())) {
                    q = without(q, d);
                    moved.add(d);
                }
            }
        }
        q = apply(OPENERS, q, true);
        if (severity() >= 2) {
            q = apply(facts().paraphrases(), q, false);
            q = GREETINGS.get(rnd.nextInt(GREETINGS.size())) + q;
        }
        if (!moved.isEmpty()) {
            List<String> spans = moved.stream().map(d -> d.span().strip()).toList();
            q = q + " The details: " + String.join(", ", spans) + ".";
        }
        return t.withQuery(q);
    }

    private static final Map<String, Pattern> COMPILED = new java.util.concurrent.ConcurrentHashMap<>();

    /** Applies the rules (only the first that matches, when {@code first}). */
    private static String apply(List<Rewrite> rules, String text, boolean first) {
        for (Rewrite r : rules) {
            Matcher m = COMPILED.computeIfAbsent(r.regex(), Pattern::compile).matcher(text);
            if (m.find()) {
                text = m.replaceAll(r.replacement());
                if (first) return text;
            }
        }
        return text;
    }
}
