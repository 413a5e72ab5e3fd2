package dev.openagent.shift.query;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Detail;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.PlanGuide;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.shift.Dimension;
import dev.openagent.shift.LayerGuide;
import dev.openagent.shift.QueryShift;
import dev.openagent.shift.Shift;
import dev.openagent.shift.Tier;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * query.noisy-user: the simulated user talks like a person (AgentNoiseBench's user noise, as against tool noise).
 * Severity 1: chatter around the request and around every answer the user gives to {@code ask_user}. 2: besides, the
 * user asks for another request of the same kind than the one first typed ({@code EnvFacts.revised}) and corrects
 * each detail that differs in place: "in Thornbury — sorry, I meant Eastfield, not Thornbury —.", so a plan built on the
 * first values fails. 3: besides, one detail of the request is left out, and the first answer to a question about it
 * is only half an answer ("ask me again"); the follow-up question gets it. The final, corrected text names every value
 * the task needs; the ending is judged against the corrected request. Where the environment poses no other request
 * (an environment file) or the task is impossible, nothing is corrected.
 */
public final class NoisyUser extends QueryShift {
    public static final Shift SHIFT = new Shift("query.noisy-user", Tier.REASONING, Dimension.Q,
            "A chatty user: chatter around the request and answers (1), details given wrong then corrected in place ('sorry, I meant ...') (2), "
                    + "a detail left out whose first answer is only partial, so ask_user must ask again (3).",
            List.of(Shift.SEVERITY), NoisyUser::new);

    /** Chatter: no values, no names, nothing a question or a retry reads ("again", "busy", "try"). */
    private static final List<String> CHATTER = List.of(
            "Hi there!",
            "Hope you're having a good day.",
            "Sorry, my cat just walked across the keyboard.",
            "Ugh, what a week it has been.",
            "Thanks so much in advance!",
            "I'm typing this on my phone, so bear with me.",
            "Oh, and the coffee at my office is terrible today.",
            "Let me think for a second... yes.",
            "Anyway, where was I?",
            "You have been very helpful so far.",
            "Honestly, I should have sorted this out last week.",
            "Hmm, it's getting late here.");

    /** How a correction reads, after the first value: " — sorry, I meant Eastfield, not Thornbury —". */
    static String correction(String meant, String first) {
        return " — sorry, I meant " + meant + ", not " + first + " —";
    }

    /** Trailing characters a changed value shares with the one it replaces, kept outside the correction. */
    private static final String CLOSING = ".,;:!?)";

    private Revision revision;
    /** Details the request leaves out (severity 3), and those whose half answer was given. */
    private List<Detail> held = List.of();
    private final Set<String> halfAnswered = new HashSet<>();

    private NoisyUser(Env inner, Map<String, String> params) {
        super(inner, SHIFT, params);
    }

    @Override
    protected Task rewrite(Task t) {
        revision = severity() >= 2 ? Revision.of(facts(), t, seed()).orElse(null) : null;
        halfAnswered.clear();
        Task meant = revision == null ? t : revision.revised();
        String typed = t.query();
        held = List.of();
        if (severity() >= 3 && !meant.details().isEmpty()) {
            List<Detail> pool = meant.details().stream().filter(d -> !d.ambiguousWithout()).toList();
            if (pool.isEmpty()) pool = meant.details();
            Detail d = pool.get(rnd.nextInt(pool.size()));
            held = List.of(d);
            meant = removed(meant, held);
            // What the user first typed leaves the same detail out.
            for (Detail x : t.details()) if (x.key().equals(d.key())) typed = without(typed, x);
        }
        String q = revision == null ? meant.query() : corrected(typed, meant.query());
        return meant.withQuery(chattered(q, severity()));
    }

    /** Chatter before and after the text: one sentence at severity 1, two at 2, three at 3. */
    private String chattered(String text, int n) {
        List<String> pool = new ArrayList<>(CHATTER);
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (int i = 0; i < n; i++) {
            String s = pool.remove(rnd.nextInt(pool.size()));
            if (i % 2 == 0) before.append(s).append(' ');
            else after.append(' ').append(s);
        }
        return (before + text + after).strip();
    }

    /**
     * The text as first typed, each run of words that differs from the text meant followed by its correction. A run
     * takes in the capitalised words around it that both texts share (a name is corrected whole), and at least one
     * word on each side.
     */
    static String corrected(String typed, String meant) {
        String[] a = typed.split(" ");
        String[] b = meant.split(" ");
        int[][] lcs = new int[a.length + 1][b.length + 1];
        for (int i = a.length - 1; i >= 0; i--) {
            for (int j = b.length - 1; j >= 0; j--) {
                lcs[i][j] = a[i].equals(b[j]) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
            }
        }
        // Runs that differ, as [a from, a to, b from, b to), along one longest common subsequence.
        List<int[]> runs = new ArrayList<>();
        int[] run = null;
        for (int i = 0, j = 0; i < a.length || j < b.length; ) {
            boolean match = i < a.length && j < b.length && a[i].equals(b[j]) && lcs[i][j] == lcs[i + 1][j + 1] + 1;
            if (match) {
                run = null;
                i++;
                j++;
                continue;
            }
            if (run == null) runs.add(run = new int[]{i, i, j, j});
            if (j >= b.length || (i < a.length && lcs[i + 1][j] >= lcs[i][j + 1])) i++;
            else j++;
            run[1] = i;
            run[3] = j;
        }
        List<int[]> merged = new ArrayList<>();
        for (int[] r : runs) {
            while (r[0] > 0 && r[2] > 0 && (r[0] == r[1] || r[2] == r[3] || (capitalised(a[r[0] - 1]) && !sentenceStart(a, r[0] - 1)))) {
                r[0]--;
                r[2]--;
            }
            while (r[1] < a.length && r[3] < b.length && (r[0] == r[1] || r[2] == r[3] || (capitalised(a[r[1]]) && !sentenceStart(a, r[1])))) {
                r[1]++;
                r[3]++;
            }
            if (!merged.isEmpty() && merged.getLast()[1] >= r[0]) {
                int[] last = merged.getLast();
                last[1] = Math.max(last[1], r[1]);
                last[3] = Math.max(last[3], r[3]);
            } else {
                merged.add(r);
            }
        }
        StringBuilder out = new StringBuilder();
        int at = 0;
        for (int[] r : merged) {
            if (r[0] == r[1] || r[2] == r[3]) continue;   // one text is a word: nothing to correct in place
            for (; at < r[0]; at++) out.append(a[at]).append(' ');
            String first = String.join(" ", List.of(a).subList(r[0], r[1]));
            String then = String.join(" ", List.of(b).subList(r[2], r[3]));
            int k = 0;
            while (k < Math.min(first.length(), then.length()) - 1 && first.charAt(first.length() - 1 - k) == then.charAt(then.length() - 1 - k)
                    && CLOSING.indexOf(first.charAt(first.length() - 1 - k)) >= 0 && !closesOwn(first.substring(0, first.length() - k))) k++;
            String closing = first.substring(first.length() - k);
            first = first.substring(0, first.length() - k);
            then = then.substring(0, then.length() - k);
            out.append(first).append(correction(then, first)).append(closing).append(' ');
            at = r[1];
        }
        for (; at < a.length; at++) out.append(a[at]).append(' ');
        return out.toString().strip();
    }

    /** Whether the text ends with a bracket it opened itself ("Dunhollow International (DUN)"): then it keeps it. */
    private static boolean closesOwn(String text) {
        return text.endsWith(")") && text.chars().filter(c -> c == '(').count() >= text.chars().filter(c -> c == ')').count();
    }

    private static boolean capitalised(String w) {
        return !w.isEmpty() && Character.isUpperCase(w.charAt(0));
    }

    private static boolean sentenceStart(String[] words, int i) {
        return i == 0 || words[i - 1].matches(".*[.?!:]$");
    }

    // ---------------------------------------------------------------- the user's answers

    @Override
    protected boolean answersUser() {
        return true;
    }

    @Override
    protected String reply(String question) {
        String answer = super.reply(question);
        for (Detail d : held) {
            if (answer.contains(d.reply()) && halfAnswered.add(d.key())) {
                answer = "Oh, the " + d.key().replace('_', ' ') + "? I wrote it down somewhere, hold on... please ask me again in a moment.";
            }
        }
        List<String> pool = new ArrayList<>(CHATTER);
        String s = pool.get(rnd.nextInt(pool.size()));
        return rnd.nextBoolean() ? s + " " + answer : answer + " " + s;
    }

    @Override
    protected Step act(Action action) {
        Step s = super.act(action);
        return s.done() && revision != null ? revision.judged(facts(), action, s) : s;
    }

    @Override
    public Guide guide() {
        return new LayerGuide(inner.guide(), this) {
            private int asked;
            private PlanGuide meant;

            @Override
            public Action next(Step last) {
                // Each detail left out is asked for twice: the first answer is only half of one.
                if (asked < 2 * held.size()) return new Action.AskUser(question(held.get(asked++ / 2)));
                if (revision == null) return innerNext();
                if (meant == null) {
                    meant = new PlanGuide(revision.revised());
                    return meant.next(null);
                }
                return meant.next(innerStep);
            }
        };
    }
}
