package dev.openagent.shift;

import dev.openagent.registry.Environments;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.ExactWords;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * query.noise misspells, abbreviates, re-cases and re-spaces a request, but what a tool needs exactly is never
 * touched: over 1,000 requests per environment and every severity, every value of the gold plan the request states
 * (an id, a code, a date, a name of several words, an e-mail address) and every word shaped like one stands in the
 * noisy request exactly as it stood, letter case and inner spaces included.
 */
class QueryNoiseKeepsExactWordsTest {
    static final int REQUESTS = 1000;

    static List<Environment> envs() { return Environments.all(); }

    /**
     * What the noise must leave intact: the values of the plan's arguments that the request states verbatim, each
     * word of them the request states (a text command's objects and rooms), and every word shaped like an id.
     */
    static Set<String> protectedSpans(Task t) {
        Set<String> out = new LinkedHashSet<>();
        for (GoldPlan.Call c : t.plan().calls()) {
            c.args().forEach(v -> {
                String s = v.asText();
                if (!(v.isTextual() || v.isNumber()) || s.isBlank()) return;
                if (wholeWord(t.query(), s)) out.add(s);
                for (String w : s.split("\\s+")) {
                    String b = ExactWords.bare(w);
                    if (b.length() > 2 && wholeWord(t.query(), b)) out.add(b);
                }
            });
        }
        for (String w : t.query().split("\\s+")) if (ExactWords.shaped(w)) out.add(ExactWords.bare(w));
        return out;
    }

    static boolean wholeWord(String text, String word) {
        return java.util.regex.Pattern.compile("(?<![\\p{L}\\p{N}])" + java.util.regex.Pattern.quote(word) + "(?![\\p{L}\\p{N}])").matcher(text).find();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("envs")
    void everyValueARequestStatesSurvivesTheNoiseExactly(Environment environment) {
        int changed = 0;
        int spans = 0;
        for (int severity = 1; severity <= 3; severity++) {
            Env base = environment.create();
            Env noisy = ShiftSpec.parseStack("query.noise:severity=" + severity).apply(environment.create());
            for (int i = 0; i < REQUESTS; i++) {
                TaskRequest r = new TaskRequest(i % 2 == 0 ? Split.TEST : Split.TRAIN, 20_000L + i, 0);
                base.reset(r);
                String before = base.task().query();
                String after = noisy.reset(r).query();
                if (!after.equals(before)) changed++;
                for (String span : protectedSpans(base.task())) {
                    spans++;
                    if (!wholeWord(after, span)) {
                        fail(environment.id() + " severity " + severity + " " + base.task().id() + ": '" + span + "' was touched\n  before: "
                                + before + "\n  after:  " + after);
                    }
                }
            }
        }
        assertTrue(spans >= REQUESTS, environment.id() + ": too few protected spans to check (" + spans + ")");
        // The shift still bites: most requests read differently.
        assertTrue(changed >= 3 * REQUESTS * 6 / 10, environment.id() + ": only " + changed + " of " + 3 * REQUESTS + " requests changed");
    }
}
