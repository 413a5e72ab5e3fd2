package dev.openagent.frontier;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.openagent.json.Json;
import dev.openagent.store.FrontierVerdicts;

import java.util.List;

/**
 * What a frontier search found: per environment the static success on the tasks it used, per shift where the
 * agent's robustness ends (the weakest severity that breaks it, or that it holds at the strongest), the
 * compositions of surviving shifts tried, and what it cost.
 *
 * @param spent    episodes the search used (static and shifted, whether run now or found in the store)
 * @param complete whether the search ran to its end (false: stopped by infrastructure errors; rerun to continue)
 * @param stopped  why it stopped early, or null
 */
public record Frontier(FrontierSearch.Settings settings, List<Static> statics, List<ShiftResult> shifts, List<Test> compositions,
                       List<String> notApplicable, int spent, boolean complete, String stopped) {
    public Frontier {
        statics = List.copyOf(statics);
        shifts = List.copyOf(shifts);
        compositions = List.copyOf(compositions);
        notApplicable = List.copyOf(notApplicable);
    }

    /** The static condition of an environment over the tasks the search used. */
    public record Static(String env, int tasks, int successes) {
        public double successRate() { return tasks == 0 ? 0 : (double) successes / tasks; }
    }

    /**
     * One paired test: a condition against static on the same tasks.
     *
     * @param label     the condition as eval labels it
     * @param level     the rung's level (a composition's: its layers' highest severity)
     * @param verdict   breaks or holds; what the estimate leans to when {@code decided} is false
     * @param decided   whether the confidence sequence reached the verdict (else the pairs ran out: the cap or the budget)
     * @param pairs     tasks run both ways
     * @param shifted   successes under the condition on those tasks
     * @param statics   static successes on those tasks
     * @param failing   tasks (their positions in the task plan) the agent solved static and failed under the condition, the first few
     */
    public record Test(String env, String label, int level, PairedDrop.Verdict verdict, boolean decided, int pairs, int shifted,
                       int statics, double drop, double lower, double upper, List<Integer> failing) {
        public Test {
            failing = List.copyOf(failing);
        }

        public boolean breaks() { return verdict == PairedDrop.Verdict.BREAKS; }

        /** As the store keeps it; {@code shift}: the shift whose rung it is, null for a composition. */
        FrontierVerdicts.Test verdict(String shift) {
            return new FrontierVerdicts.Test(env, shift, label, level, verdict.id(), decided, pairs, shifted, statics, drop, lower, upper);
        }

        ObjectNode json() {
            ObjectNode o = Json.object();
            o.put("env", env);
            o.put("condition", label);
            o.put("level", level);
            o.put("verdict", verdict.id());
            o.put("decided", decided);
            o.put("tasks", pairs);
            o.put("static_success", pairs == 0 ? null : round((double) statics / pairs));
            o.put("shifted_success", pairs == 0 ? null : round((double) shifted / pairs));
            o.put("drop", round(drop));
            o.putArray("drop_interval").add(round(lower)).add(round(upper));
            o.put("episodes", pairs);
            ArrayNode f = o.putArray("failing_tasks");
            failing.forEach(f::add);
            return o;
        }
    }

    /** Where a shift's ladder ended. */
    public enum Status {
        /** A rung broke the agent: {@link ShiftResult#breakingLevel()} is its level. */
        BREAKS,
        /** Every rung held, the strongest included. */
        HOLDS,
        /** The budget ran out before the ladder ended (every rung tested held). */
        UNKNOWN;

        public String id() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /**
     * One shift's frontier.
     *
     * @param rungs    every rung tested, weakest first (with a ladder the budget ended, the rung it ended, even untested)
     * @param levels   the ladder's levels (severities), tested or not
     * @param severity whether the shift has severities (else it has one level, 1)
     */
    public record ShiftResult(String env, String shift, String tier, List<Integer> levels, boolean severity, Status status, List<Test> rungs) {
        public ShiftResult {
            levels = List.copyOf(levels);
            rungs = List.copyOf(rungs);
        }

        /** The level that broke the agent, or null. */
        public Integer breakingLevel() { return status == Status.BREAKS ? decisive().level() : null; }

        /**
         * The test the frontier reports: the breaking rung (the weakest that breaks, in a grid that ran them all), else
         * the strongest rung tested (null when none was).
         */
        public Test decisive() {
            List<Test> run = rungs.stream().filter(t -> t.pairs() > 0).toList();
            if (run.isEmpty()) return null;
            return status == Status.BREAKS ? run.stream().filter(Test::breaks).findFirst().orElse(run.getLast()) : run.getLast();
        }

        /** Whether every verdict on the way was reached with the confidence (not by the estimate at the cap or budget). */
        public boolean decided() { return status != Status.UNKNOWN && !rungs.isEmpty() && rungs.stream().allMatch(Test::decided); }

        public int episodes() { return rungs.stream().mapToInt(Test::pairs).sum(); }

        /** "breaks at 2", "holds at 3", "breaks", "holds", "budget ran out at 3; holds at 2". */
        public String describe() {
            Test last = decisive();
            return switch (status) {
                case BREAKS -> severity ? "breaks at " + last.level() : "breaks";
                case HOLDS -> severity ? "holds at " + last.level() : "holds";
                case UNKNOWN -> rungs.isEmpty() ? "not tested (budget)" : "budget ran out at " + rungs.getLast().level()
                        + (rungs.size() > 1 ? "; holds at " + rungs.get(rungs.size() - 2).level() : "");
            };
        }
    }

    /** The verdicts as the results store keeps them ({@link dev.openagent.store.ResultStore#saveFrontier}). */
    public FrontierVerdicts verdicts() {
        List<FrontierVerdicts.Shift> out = new java.util.ArrayList<>();
        List<FrontierVerdicts.Test> tests = new java.util.ArrayList<>();
        for (ShiftResult r : shifts) {
            out.add(new FrontierVerdicts.Shift(r.env(), r.shift(), r.tier(), r.status().id(), r.breakingLevel(), r.severity() ? r.levels() : List.of()));
            for (Test t : r.rungs()) tests.add(t.verdict(r.shift()));
        }
        for (Test t : compositions) tests.add(t.verdict(null));
        return new FrontierVerdicts(out, tests);
    }

    public ObjectNode json() {
        ObjectNode o = Json.object();
        FrontierSearch.Settings s = settings;
        o.put("drop_threshold", s.drop());
        o.put("confidence", s.confidence());
        o.put("budget", s.budget());
        o.put("max_tasks", s.maxTasks());
        if (s.grid()) o.put("grid", true);
        o.put("complete", complete);
        if (stopped != null) o.put("stopped", stopped);
        ArrayNode st = o.putArray("static");
        for (Static x : statics) st.addObject().put("env", x.env()).put("tasks", x.tasks()).put("success_rate", round(x.successRate()));
        ArrayNode fr = o.putArray("frontier");
        for (ShiftResult r : shifts) {
            ObjectNode e = fr.addObject();
            e.put("env", r.env());
            e.put("shift", r.shift());
            e.put("tier", r.tier());
            e.put("status", r.status().id());
            e.put("breaking_severity", r.breakingLevel());
            Test d = r.decisive();
            e.put("drop", d == null ? null : round(d.drop()));
            if (d != null) e.putArray("drop_interval").add(round(d.lower())).add(round(d.upper()));
            e.put("decided", r.decided());
            e.put("episodes", r.episodes());
            ArrayNode lv = e.putArray("severities");
            if (r.severity()) r.levels().forEach(lv::add);
            ArrayNode rungs = e.putArray("tests");
            r.rungs().forEach(t -> rungs.add(t.json()));
        }
        ArrayNode comps = o.putArray("compositions");
        for (Test t : compositions) comps.add(t.json().put("shifts", t.label()));
        ArrayNode na = o.putArray("not_applicable");
        notApplicable.forEach(na::add);
        o.put("episodes_spent", spent);
        return o;
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
