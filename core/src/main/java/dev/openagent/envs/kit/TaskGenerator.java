package dev.openagent.envs.kit;

import dev.openagent.domain.Tool;
import dev.openagent.sandbox.Seeds;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What an environment's task generator works with while it poses one task (its families of task kinds read
 * these): the episode's world, a random stream of its own (the episode seed mixed with the environment's
 * salt, so task choices do not move when the world draws more) and the task being drafted.
 *
 * @param <W> the world of one episode
 */
public abstract class TaskGenerator<W> {
    public final W w;
    public final SplittableRandom rnd;
    public final TaskDraft<W> draft;

    protected TaskGenerator(W world, long seed, long salt, List<Tool<W>> tools) {
        this.w = world;
        this.rnd = new SplittableRandom(Seeds.mix(seed, salt));
        this.draft = new TaskDraft<>(world, tools);
    }
}
