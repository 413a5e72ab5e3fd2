package dev.openagent.domain;

import dev.openagent.sandbox.Chain;
import dev.openagent.sandbox.GoldPlan;
import dev.openagent.sandbox.EnvFacts;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.sandbox.ToolFacts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A domain's declarations bound to the world of one episode: the facts of its tools, its vocabulary,
 * and the ways its task kinds allow to make a task impossible or longer.
 */
final class DomainFacts<W> implements EnvFacts {
    // Stream salts, kept from the environments' first versions so seeded episodes stay the same.
    private static final long UNSOLVABLE = 0x0DD;
    private static final long LONGER = 0xC4A1;
    private static final long DISTRACTIONS = 0xD15;
    private static final long REVISED = 0x2E71;
    /** How many requests the generator is asked for before a revision of the same kind is given up. */
    private static final int REVISION_TRIES = 24;

    private final Domain<W> domain;
    private final W world;
    /** A copy of the episode's world as its reset left it (null: none, so no revisions). */
    private final Supplier<W> fresh;
    private final List<ToolFacts> tools;

    DomainFacts(Domain<W> domain, W world, Supplier<W> fresh) {
        this.domain = domain;
        this.world = world;
        this.fresh = fresh;
        this.tools = switch (domain.surface()) {
            case Surface.FunctionCalls<W> f -> f.tools().stream().map(Tool::facts).filter(t -> !t.isEmpty()).toList();
            case Surface.TextCommands<W> t -> List.of();
        };
    }

    @Override
    public List<ToolFacts> tools() { return tools; }

    @Override
    public Map<String, List<String>> synonyms() { return domain.vocabulary().synonyms(); }

    @Override
    public List<Rewrite> paraphrases() { return domain.vocabulary().paraphrases(); }

    @Override
    public List<String> distractions(Task task, long seed) {
        return domain.vocabulary().distractions().of(task, world, new SplittableRandom(Seeds.mix(seed, DISTRACTIONS)));
    }

    /** The kind's declared ways, tried in a random order; the first that fits the task wins. */
    @Override
    public Optional<Task> unsolvable(Task task, long seed) {
        SplittableRandom rnd = new SplittableRandom(Seeds.mix(seed, UNSOLVABLE));
        List<TaskKind.Impossible<W>> left = new ArrayList<>(kind(task).map(TaskKind::impossible).orElse(List.of()));
        while (!left.isEmpty()) {
            Optional<Task> t = left.remove(rnd.nextInt(left.size())).apply(task, world, rnd);
            if (t.isPresent()) return t;
        }
        return Optional.empty();
    }

    @Override
    public Optional<Chain> longerChain(Task task, long seed, int extraHops) {
        Optional<TaskKind.Restatement<W>> how = kind(task).map(TaskKind::longerChain);
        return how.flatMap(r -> r.apply(task, world, new SplittableRandom(Seeds.mix(seed, LONGER)), extraHops));
    }

    /**
     * Requests the generator poses for derived seeds, until one is of the same kind, solvable and asks something
     * else. Candidates are posed in copies of the episode's world as its reset left it (a generator may set up what
     * its task needs in the world, and a rejected candidate must leave no trace); the one chosen is then posed again
     * in the episode's world, which gains what it needs, as on a reset. The revision comes before the agent changed
     * anything (shifts revise only before a committing call), so the two pose the same request.
     */
    @Override
    public Optional<Task> revised(Task task, long seed) {
        if (fresh == null) return Optional.empty();
        for (int i = 1; i <= REVISION_TRIES; i++) {
            long s = Seeds.mix(Seeds.mix(seed, REVISED), i);
            TaskRequest request = new TaskRequest(task.split(), s, task.difficulty());
            Task t = domain.task(fresh.get(), request, s);
            if (t.kind().equals(task.kind()) && t.solvable() && asksOtherwise(t, task)) return Optional.of(domain.task(world, request, s));
        }
        return Optional.empty();
    }

    /** Another request in earnest: other words, other work (the plan's calls) and another right answer or state. */
    private boolean asksOtherwise(Task revised, Task task) {
        boolean otherCalls = !revised.plan().calls().equals(task.plan().calls());
        // A writing task may keep what it expects in the world (household's goal): its other plan is then enough.
        boolean inWorld = revised.writes() && revised.expect().isEmpty() && revised.mustContain().isEmpty();
        boolean otherResult = inWorld || !revised.mustContain().equals(task.mustContain()) || !revised.expect().equals(task.expect());
        return !revised.query().equals(task.query()) && otherCalls && otherResult && used(revised).equals(used(task));
    }

    /**
     * The tools (or command verbs) a task's plan uses. A revision uses the same ones, so a layer that took away
     * what the first request did not need (tool.removal) leaves the revision solvable too.
     */
    private Set<String> used(Task task) {
        Set<String> out = new TreeSet<>();
        List<String> verbs = domain.surface().names();
        for (GoldPlan.Call c : task.plan().calls()) {
            if (!c.isCommand()) {
                out.add(c.tool());
                continue;
            }
            String text = c.args().path("text").asText();
            String verb = "";
            for (String v : verbs) if ((text.equals(v) || text.startsWith(v + " ")) && v.length() > verb.length()) verb = v;
            out.add(verb);
        }
        return out;
    }

    @Override
    public String check(Task task, String answer) { return domain.check(task, world, answer); }

    private Optional<? extends TaskKind<W, ?>> kind(Task task) {
        return domain.kinds().stream().filter(k -> k.name().equals(task.kind())).findFirst();
    }
}
