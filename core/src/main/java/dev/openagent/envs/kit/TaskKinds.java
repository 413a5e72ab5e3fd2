package dev.openagent.envs.kit;

import dev.openagent.domain.TaskKind;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * An environment's task kinds, by level, and how its generator chooses one: the requested level (or one
 * drawn at random when the request leaves it open), then the first kind of that level, tried in a random
 * order, that the world can pose. A kind that cannot be posed gives way to a sibling, so generation never
 * gives up at random.
 *
 * @param <W> the world of one episode
 * @param <G> the environment's task generator, what the kinds' poses work on
 */
public final class TaskKinds<W, G> {
    private final List<TaskKind<W, G>> all;
    private final Map<Integer, List<TaskKind<W, G>>> byLevel = new TreeMap<>();
    private final List<Integer> levels;

    @SafeVarargs
    public TaskKinds(TaskKind<W, G>... kinds) {
        this.all = List.of(kinds);
        for (TaskKind<W, G> k : all) byLevel.computeIfAbsent(k.difficulty(), d -> new ArrayList<>()).add(k);
        byLevel.replaceAll((d, ks) -> List.copyOf(ks));
        this.levels = List.copyOf(byLevel.keySet());
    }

    /** Every kind, in declaration order. */
    public List<TaskKind<W, G>> all() { return all; }

    /** The kinds of one level, in declaration order. */
    public List<TaskKind<W, G>> of(int level) { return byLevel.getOrDefault(level, List.of()); }

    /** The requested level, or one of the levels drawn at random when the request leaves it open (0). */
    public int level(TaskRequest request, SplittableRandom rnd) {
        return request.difficulty() == 0 ? levels.get(rnd.nextInt(levels.size())) : request.difficulty();
    }

    /**
     * Poses the first kind of the level, tried in a random order, that the generator can set up.
     *
     * @throws IllegalStateException when none fits (a generator bug: every world must pose every level)
     */
    public TaskKind<W, G> pose(int level, G generator, SplittableRandom rnd, String env) {
        for (TaskKind<W, G> k : Pick.shuffled(of(level), rnd)) if (k.pose().test(generator)) return k;
        throw new IllegalStateException("no " + env + " task of difficulty " + level + " fits this world (tried "
                + of(level).stream().map(TaskKind::name).toList() + ")");
    }

    /**
     * The task of a request, as most environments generate it: at the request's level (or a drawn one), the first
     * kind the generator can set up, written down by the draft the generator filled in while setting it up.
     */
    public Task task(String env, TaskRequest request, G generator, SplittableRandom rnd, TaskDraft<W> draft) {
        int level = level(request, rnd);
        return draft.build(env, request, pose(level, generator, rnd, env).name(), level);
    }
}
