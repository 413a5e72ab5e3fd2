package dev.openagent.frontier;

import dev.openagent.UserInputException;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The frontier search: for each shift, the weakest severity at which the agent's success falls at least
 * {@code drop} below its static success on the same tasks ({@link PairedDrop}), then compositions of the shifts
 * it survived.
 * <p>
 * It runs in rounds. In each round every open test gets {@link Settings#look} more tasks (the next tasks of one
 * fixed task plan, each run static and under the test's condition, the static episode shared by every test of the
 * environment), up to {@link Settings#maxTasks}. A test ends when its verdict is reached, or at the cap, where
 * the estimate decides (flagged undecided). A shift's ladder climbs one rung at a time: a rung that breaks the
 * agent ends it (stronger rungs are never run), a rung that holds starts the next. Once every ladder of an
 * environment has ended, the shifts that held at their strongest rung are composed: the pairs whose drops add up
 * to the most ({@link Settings#pairs} of them), then greedy growth: the pair (later the composition) that held
 * with the largest drop gains, in turn, each of the {@link Settings#growth} survivors with the largest drops
 * alone, until a composition breaks the agent or has {@link Settings#maxLayers} shifts.
 * <p>
 * Every decision depends only on the outcomes of a fixed prefix of the task plan, so the search is
 * deterministic: rerun over a store that holds some of its episodes, it takes the same steps, reusing them.
 * Infrastructure errors are never outcomes: a round whose episodes are not all scored stops the search
 * (incomplete), and a rerun continues it. The budget counts every episode the search uses; a round that would
 * exceed it gives its tasks to the tests in order while they fit, and the others end where they are.
 */
public final class FrontierSearch {
    /**
     * How the search runs.
     *
     * @param drop       the drop in success that breaks the agent, in (0, 1]
     * @param confidence the confidence of each test's interval, in (0, 1)
     * @param budget     the most episodes the search may use, static ones included
     * @param maxTasks   the most tasks a test runs (the task plan's length)
     * @param look       tasks added to an open test per round
     * @param pairs      the most pairs of surviving shifts tested per environment
     * @param growth     survivors tried per step of greedy growth
     * @param maxLayers  the most shifts a composition grows to
     * @param grid       run the exhaustive grid instead: every rung of every ladder to {@code maxTasks} tasks, the verdict
     *                   by the estimate alone, no compositions (what the search is checked against)
     */
    public record Settings(double drop, double confidence, int budget, int maxTasks, int look, int pairs, int growth, int maxLayers,
                           boolean grid) {
        /**
         * A test still open after this many tasks has a drop within a few points of the threshold (the interval narrows
         * slowly from here: docs/frontier.md, "What it costs"), so its estimate decides: more tasks would mostly buy a
         * verdict by estimate anyway.
         */
        public static final int MAX_TASKS = 100;
        public static final int LOOK = 10;
        public static final int PAIRS = 10;
        public static final int GROWTH = 3;
        public static final int MAX_LAYERS = 4;

        public Settings {
            if (!(drop > 0 && drop <= 1)) throw new UserInputException("the drop must be in (0, 1], got " + drop);
            if (!(confidence > 0 && confidence < 1)) throw new UserInputException("the confidence must be in (0, 1), got " + confidence);
            if (budget < 1) throw new UserInputException("the budget must be at least 1 episode, got " + budget);
            if (maxTasks < 1) throw new UserInputException("the tasks per test must be at least 1");
            if (look < 1 || pairs < 0 || growth < 0 || maxLayers < 2) throw new UserInputException("bad search settings");
        }

        public static Settings of(double drop, double confidence, int budget, int maxTasks) {
            return new Settings(drop, confidence, budget, maxTasks, LOOK, PAIRS, GROWTH, MAX_LAYERS, false);
        }

        /** The exhaustive grid with these settings. */
        public Settings asGrid() {
            return new Settings(drop, confidence, budget, maxTasks, look, 0, growth, maxLayers, true);
        }
    }

    /** One episode the search needs: a task (its position in the task plan) of an environment, static or under a stack. */
    public record Cell(String env, ShiftStack stack, int task) {}

    /**
     * Runs episodes for the search.
     */
    public interface Runner {
        /**
         * Runs (or finds) these episodes. An episode that could not be scored (an infrastructure error after its
         * retries) is left out of the answer, and so is any the runner did not get to: the search then stops.
         */
        Outcomes run(List<Cell> cells);
    }

    /**
     * What a runner found.
     *
     * @param success    by cell, whether the episode succeeded (scored episodes only)
     * @param stopReason why the runner stopped before scoring every cell, or null
     */
    public record Outcomes(Map<Cell, Boolean> success, String stopReason) {}

    /** What the search tells its progress display after each round. */
    public interface Listener {
        /**
         * @param spent     episodes used so far
         * @param settled   ladders ended, of {@code ladders}
         * @param remaining an estimate of the episodes still to run (the per-shift search; compositions once begun)
         * @param most      the most the search may still run
         */
        void round(int spent, int settled, int ladders, int remaining, int most);

        Listener NONE = (spent, settled, ladders, remaining, most) -> {};
    }

    /** Failing tasks kept per test, as examples. */
    static final int EXAMPLES = 3;

    private final Settings settings;
    private final Runner runner;
    private final Listener listener;
    private final Map<String, Env> envs = new LinkedHashMap<>();
    private int spent;

    /**
     * @param ladders    per environment, its ladders in the order they are reported
     * @param applicable per environment and stack, why the stack cannot run there (for compositions), if it cannot
     */
    public FrontierSearch(Settings settings, Map<String, List<Ladder>> ladders, BiFunction<String, ShiftStack, Optional<String>> applicable,
                          Runner runner, Listener listener) {
        this.settings = settings;
        this.runner = runner;
        this.listener = listener == null ? Listener.NONE : listener;
        ladders.forEach((env, ls) -> envs.put(env, new Env(env, ls, stack -> applicable.apply(env, stack))));
    }

    /** Runs the search to its end, the budget's end, or the first round whose episodes were not all scored. */
    public Frontier run(List<String> notApplicable) {
        String stopped = null;
        report();
        while (true) {
            for (Env e : envs.values()) e.advance();
            List<Test> open = new ArrayList<>();
            for (Env e : envs.values()) open.addAll(e.open());
            if (open.isEmpty()) break;
            List<Cell> cells = plan(open);
            if (cells.isEmpty()) continue;   // every open test was frozen by the budget; advance ends their ladders
            Outcomes out = runner.run(cells);
            if (out.stopReason() != null || !out.success().keySet().containsAll(cells)) {
                stopped = out.stopReason() != null ? out.stopReason() : "some episodes could not be scored (infrastructure errors)";
                break;
            }
            spent += cells.size();
            for (Env e : envs.values()) e.absorb(out.success());
            for (Env e : envs.values()) e.advance();
            report();
        }
        report();
        return result(notApplicable, stopped);
    }

    /**
     * The cells of one round: each open test's next tasks with the static tasks they need, within the budget. A test
     * that does not fit is frozen (it ends where it is); tests are served in the order they were started.
     */
    private List<Cell> plan(List<Test> open) {
        Map<String, Integer> staticTo = new LinkedHashMap<>();
        for (Env e : envs.values()) staticTo.put(e.id, e.staticKnown());
        List<Cell> shifted = new ArrayList<>();
        int left = settings.budget() - spent;
        for (Test t : open) {
            int target = Math.min(t.n + settings.look(), settings.maxTasks());
            int needStatic = Math.max(0, target - staticTo.get(t.env.id));
            int cost = (target - t.n) + needStatic;
            if (cost > left) {
                t.frozen = true;
                continue;
            }
            left -= cost;
            staticTo.put(t.env.id, Math.max(staticTo.get(t.env.id), target));
            t.target = target;
            for (int i = t.n; i < target; i++) shifted.add(new Cell(t.env.id, t.stack, i));
        }
        List<Cell> cells = new ArrayList<>();
        for (Env e : envs.values()) {
            for (int i = e.staticKnown(); i < staticTo.get(e.id); i++) cells.add(new Cell(e.id, ShiftStack.NONE, i));
        }
        shifted.sort(Comparator.comparingInt(Cell::task));   // tasks outermost: a stopped round covers the tests evenly
        cells.addAll(shifted);
        return cells;
    }

    private void report() {
        int settled = 0, ladders = 0, remaining = 0, most = 0;
        for (Env e : envs.values()) {
            for (LadderRun l : e.ladders) {
                ladders++;
                if (l.done()) settled++;
            }
            remaining += e.remaining(false);
            most += e.remaining(true);
        }
        int left = settings.budget() - spent;
        listener.round(spent, settled, ladders, Math.min(remaining, left), Math.min(most, left));
    }

    private Frontier result(List<String> notApplicable, String stopped) {
        List<Frontier.Static> statics = new ArrayList<>();
        List<Frontier.ShiftResult> shifts = new ArrayList<>();
        List<Frontier.Test> compositions = new ArrayList<>();
        for (Env e : envs.values()) {
            int n = e.staticKnown();
            int ok = 0;
            for (int i = 0; i < n; i++) if (e.statics.get(i)) ok++;
            statics.add(new Frontier.Static(e.id, n, ok));
            for (LadderRun l : e.ladders) shifts.add(l.result());
            for (Test t : e.compositions) if (t.n > 0) compositions.add(t.result());
        }
        return new Frontier(settings, statics, shifts, compositions, notApplicable, spent, stopped == null, stopped);
    }

    // ---------------------------------------------------------------- state

    /** One environment's search: its static outcomes, ladders and compositions. */
    private final class Env {
        final String id;
        final List<LadderRun> ladders = new ArrayList<>();
        final java.util.function.Function<ShiftStack, Optional<String>> applicable;
        /** Static success by task, a prefix of the task plan. */
        final List<Boolean> statics = new ArrayList<>();
        final List<Test> compositions = new ArrayList<>();
        /** The compositions of the latest wave (pairs, then each growth step); null before the pairs. */
        List<Test> wave;
        boolean compositionsDone;

        Env(String id, List<Ladder> ls, java.util.function.Function<ShiftStack, Optional<String>> applicable) {
            this.id = id;
            this.applicable = applicable;
            for (Ladder l : ls) ladders.add(new LadderRun(this, l));
        }

        int staticKnown() { return statics.size(); }

        List<Test> open() {
            List<Test> out = new ArrayList<>();
            for (LadderRun l : ladders) {
                if (l.done()) continue;
                for (Test t : l.tests) if (!t.finished()) out.add(t);
            }
            if (wave != null) for (Test t : wave) if (!t.finished()) out.add(t);
            return out;
        }

        void absorb(Map<Cell, Boolean> success) {
            while (success.containsKey(new Cell(id, ShiftStack.NONE, statics.size()))) statics.add(success.get(new Cell(id, ShiftStack.NONE, statics.size())));
            for (LadderRun l : ladders) if (!l.done()) for (Test t : l.tests) if (!t.finished()) t.absorb(success);
            if (wave != null) for (Test t : wave) if (!t.finished()) t.absorb(success);
        }

        /** Climbs ladders whose rung ended; once they all ended, plans the next wave of compositions. */
        void advance() {
            for (LadderRun l : ladders) l.advance();
            if (compositionsDone || settings.grid() || ladders.stream().anyMatch(l -> !l.done())) return;
            if (wave != null && wave.stream().anyMatch(t -> !t.finished())) return;
            List<Test> next = wave == null ? pairs() : grow();
            if (next.isEmpty()) {
                compositionsDone = true;
                return;
            }
            compositions.addAll(next);
            wave = next;
        }

        /** The shifts that held at their strongest rung, by their drop there (largest first). */
        List<LadderRun> survivors() {
            return ladders.stream().filter(l -> l.status() == Frontier.Status.HOLDS)
                    .sorted(Comparator.comparingDouble((LadderRun l) -> -l.current().stat.estimate()).thenComparing(l -> l.ladder.name()))
                    .toList();
        }

        /** Conditions already tested here: every rung of every ladder, and the compositions tried. */
        Set<String> tried() {
            Set<String> out = new HashSet<>();
            for (LadderRun l : ladders) for (Ladder.Rung r : l.ladder.rungs()) out.add(r.label());
            for (Test t : compositions) out.add(t.stack.label());
            return out;
        }

        List<Test> pairs() {
            List<LadderRun> s = survivors();
            Set<String> tried = tried();
            record Pair(ShiftStack stack, double score) {}
            List<Pair> pairs = new ArrayList<>();
            for (int i = 0; i < s.size(); i++) {
                for (int j = i + 1; j < s.size(); j++) {
                    ShiftStack stack = compose(s.get(i).ladder.top().stack(), s.get(j).ladder.top().stack());
                    if (stack == null || tried.contains(stack.label()) || applicable.apply(stack).isPresent()) continue;
                    pairs.add(new Pair(stack, s.get(i).current().stat.estimate() + s.get(j).current().stat.estimate()));
                }
            }
            pairs.sort(Comparator.comparingDouble((Pair p) -> -p.score()).thenComparing(p -> p.stack().label()));
            List<Test> out = new ArrayList<>();
            for (Pair p : pairs.subList(0, Math.min(settings.pairs(), pairs.size()))) out.add(new Test(this, p.stack(), level(p.stack())));
            return out;
        }

        /** The next growth step: the latest wave's composition that held with the largest drop, with each of the best survivors added. */
        List<Test> grow() {
            if (wave.stream().anyMatch(t -> t.stat.leaning() == PairedDrop.Verdict.BREAKS)) return List.of();
            Test base = wave.stream().filter(t -> t.n > 0 && t.stack.layers().size() < settings.maxLayers())
                    .min(Comparator.comparingDouble((Test t) -> -t.stat.estimate()).thenComparing(t -> t.stack.label())).orElse(null);
            if (base == null) return List.of();
            Set<String> tried = tried();
            List<Test> out = new ArrayList<>();
            for (LadderRun s : survivors()) {
                if (out.size() >= settings.growth()) break;
                ShiftStack stack = compose(base.stack, s.ladder.top().stack());
                if (stack == null || tried.contains(stack.label()) || applicable.apply(stack).isPresent()) continue;
                out.add(new Test(this, stack, level(stack)));
            }
            return out;
        }

        /** Tasks the search may still run here: its estimate, or the most ({@code most}; the grid runs the most). */
        int remaining(boolean most) {
            most = most || settings.grid();
            List<Test> finished = new ArrayList<>();
            for (LadderRun l : ladders) for (Test t : l.tests) if (t.finished()) finished.add(t);
            int typical = finished.isEmpty() ? 4 * settings.look() : (int) Math.ceil(finished.stream().mapToInt(t -> t.n).average().orElse(0));
            int out = 0;
            int staticTo = 0;
            for (LadderRun l : ladders) {
                if (l.done()) continue;
                Test t = l.current();
                int rest = settings.grid() ? 0 : l.ladder.rungs().size() - 1 - l.rung;
                out += most ? settings.maxTasks() - t.n + rest * settings.maxTasks() : Math.max(settings.look(), typical - t.n) + rest * typical;
                staticTo = Math.max(staticTo, most ? settings.maxTasks() : Math.min(settings.maxTasks(), Math.max(t.n, typical)));
            }
            if (settings.grid()) for (LadderRun l : ladders) for (Test t : l.tests) if (!t.finished() && t != l.current()) out += settings.maxTasks() - t.n;
            if (wave != null) for (Test t : wave) if (!t.finished()) out += most ? settings.maxTasks() - t.n : Math.max(settings.look(), typical - t.n);
            return out + Math.max(0, staticTo - staticKnown());
        }
    }

    /** Two stacks composed, or null when they share a shift. */
    private static ShiftStack compose(ShiftStack a, ShiftStack b) {
        Set<String> ids = new HashSet<>();
        for (ShiftStack.Layer l : a.layers()) ids.add(l.shift().id());
        for (ShiftStack.Layer l : b.layers()) if (!ids.add(l.shift().id())) return null;
        List<ShiftStack.Layer> layers = new ArrayList<>(a.layers());
        layers.addAll(b.layers());
        return new ShiftStack(layers);
    }

    /** A composition's level: its layers' highest severity (1 when none has one). */
    private static int level(ShiftStack stack) {
        return stack.layers().stream().filter(l -> l.params().containsKey(Ladder.SEVERITY))
                .mapToInt(l -> Integer.parseInt(l.params().get(Ladder.SEVERITY))).max().orElse(1);
    }

    /** A ladder as the search climbs it. */
    private final class LadderRun {
        final Env env;
        final Ladder ladder;
        final List<Test> tests = new ArrayList<>();
        int rung;
        Frontier.Status status;

        LadderRun(Env env, Ladder ladder) {
            this.env = env;
            this.ladder = ladder;
            for (Ladder.Rung r : settings.grid() ? ladder.rungs() : ladder.rungs().subList(0, 1)) tests.add(new Test(env, r.stack(), r.level()));
        }

        Test current() { return tests.getLast(); }

        boolean done() { return status != null; }

        Frontier.Status status() { return status; }

        void advance() {
            if (settings.grid()) {
                // The grid: once every rung has run, the weakest whose estimate reaches the threshold breaks the agent.
                if (done() || tests.stream().anyMatch(t -> !t.finished())) return;
                boolean breaks = tests.stream().anyMatch(t -> t.n > 0 && t.stat.estimate() >= settings.drop());
                boolean all = tests.stream().allMatch(t -> t.n >= settings.maxTasks());
                status = breaks ? Frontier.Status.BREAKS : all ? Frontier.Status.HOLDS : Frontier.Status.UNKNOWN;
                return;
            }
            if (done() || !current().finished()) return;
            Test t = current();
            if (t.frozen) {
                // The budget ended the rung undecided: a lean to breaking is reported as the break (undecided); a lean to
                // holding cannot climb on, so where the ladder ends is unknown.
                status = t.n > 0 && t.stat.leaning() == PairedDrop.Verdict.BREAKS ? Frontier.Status.BREAKS : Frontier.Status.UNKNOWN;
                return;
            }
            if (t.stat.leaning() == PairedDrop.Verdict.BREAKS) {
                status = Frontier.Status.BREAKS;
            } else if (rung + 1 < ladder.rungs().size()) {
                rung++;
                Ladder.Rung next = ladder.rungs().get(rung);
                tests.add(new Test(env, next.stack(), next.level()));
            } else {
                status = Frontier.Status.HOLDS;
            }
        }

        Frontier.ShiftResult result() {
            Frontier.Status s = status == null ? Frontier.Status.UNKNOWN : status;
            // A ladder the budget ended keeps the rung it ended at, run or not; otherwise every rung listed ran.
            List<Frontier.Test> rungs = tests.stream().filter(t -> t.n > 0 || s == Frontier.Status.UNKNOWN && t == current()).map(Test::result).toList();
            return new Frontier.ShiftResult(env.id, ladder.name(), ladder.tier(), ladder.rungs().stream().map(Ladder.Rung::level).toList(),
                    ladder.rungs().getFirst().severity(), s, rungs);
        }
    }

    /** One paired test under way. */
    private final class Test {
        final Env env;
        final ShiftStack stack;
        final int level;
        final PairedDrop stat = new PairedDrop(settings.drop(), settings.confidence());
        final List<Integer> failing = new ArrayList<>();
        int shiftedSuccesses;
        int staticSuccesses;
        /** Pairs absorbed. */
        int n;
        /** The tasks asked for in the current round. */
        int target;
        /** The budget could not give it its next tasks. */
        boolean frozen;

        Test(Env env, ShiftStack stack, int level) {
            this.env = env;
            this.stack = stack;
            this.level = level;
        }

        boolean finished() {
            return frozen || n >= settings.maxTasks() || !settings.grid() && stat.verdict() != PairedDrop.Verdict.OPEN;
        }

        void absorb(Map<Cell, Boolean> success) {
            while (n < target) {
                Boolean shifted = success.get(new Cell(env.id, stack, n));
                if (shifted == null) return;
                boolean st = env.statics.get(n);
                stat.add(st, shifted);
                if (shifted) shiftedSuccesses++;
                if (st) staticSuccesses++;
                if (st && !shifted && failing.size() < EXAMPLES) failing.add(n);
                n++;
            }
        }

        Frontier.Test result() {
            PairedDrop.Verdict verdict = !settings.grid() ? stat.leaning() : stat.estimate() >= settings.drop() ? PairedDrop.Verdict.BREAKS : PairedDrop.Verdict.HOLDS;
            return new Frontier.Test(env.id, stack.label(), level, verdict, stat.verdict() != PairedDrop.Verdict.OPEN, n, shiftedSuccesses,
                    staticSuccesses, stat.estimate(), stat.lower(), stat.upper(), failing);
        }
    }
}
