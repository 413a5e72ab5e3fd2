package dev.openagent.policy;

import dev.openagent.sandbox.Action;
import dev.openagent.sandbox.Env;
import dev.openagent.sandbox.Environment;
import dev.openagent.sandbox.Guide;
import dev.openagent.sandbox.Seeds;
import dev.openagent.sandbox.Split;
import dev.openagent.sandbox.Start;
import dev.openagent.sandbox.Step;
import dev.openagent.sandbox.Task;
import dev.openagent.sandbox.TaskRequest;
import dev.openagent.shift.ShiftStack;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Oracle demonstrations: the oracle follows the environment's guide through every shift layer,
 * so under a shift its trajectory is the recovery demonstration (retrying after a transient
 * error, following a redirect, asking the user, refusing an unsolvable task). Each step is
 * recorded as what the agent saw, what the oracle did, and the task (privileged, for targets).
 */
public final class Demonstrations {
    /** One demonstrated step. */
    public record Demo(View view, Action action, Task task) {}

    /** A demonstrated episode: its steps, the shift stack it ran under, and whether the oracle succeeded. */
    public record Episode(List<Demo> steps, ShiftStack shifts, boolean success) {}

    private final Environment environment;
    private final double alpha;
    private final ShiftSampler shifts;
    private final long seed;
    private final List<Integer> levels;
    private final SplittableRandom rnd;
    private long count;
    /** Distinct tasks drawn in turn (0: a new task every episode). */
    private int pool;

    /**
     * @param alpha  the fraction of episodes run under a shift sampled from {@code shifts} (0 for SFT)
     * @param shifts where shifted episodes draw their shift from (may be empty when alpha is 0)
     */
    public Demonstrations(Environment environment, double alpha, ShiftSampler shifts, long seed) {
        this(environment, alpha, shifts, seed, List.of());
    }

    /**
     * @param levels the difficulty levels to draw tasks from, uniformly (empty: any, as the task seed chooses)
     */
    public Demonstrations(Environment environment, double alpha, ShiftSampler shifts, long seed, List<Integer> levels) {
        if (alpha < 0 || alpha > 1) throw new IllegalArgumentException("alpha must be in [0, 1], got " + alpha);
        if (alpha > 0 && shifts.isEmpty()) {
            throw new IllegalArgumentException("alpha > 0 needs shifts to sample, and the shift catalog has none that apply to "
                    + environment.id());
        }
        this.environment = environment;
        this.alpha = alpha;
        this.shifts = shifts;
        this.seed = seed;
        this.levels = List.copyOf(levels);
        this.rnd = new SplittableRandom(Seeds.mix(seed, 0xDE40));
    }

    /**
     * Draws from {@code n} distinct training tasks, in turn, instead of a new task every episode (0);
     * a task met again gets a freshly drawn shift. For data-scaling studies: the same steps over 4x
     * the tasks.
     */
    public Demonstrations withTaskPool(int n) {
        if (n < 0) throw new IllegalArgumentException("the task pool cannot be negative");
        this.pool = n;
        return this;
    }

    /** The next training-split episode; oracle failures are skipped (they would teach failure). */
    public Episode next() {
        while (true) {
            long index = count++;
            long taskSeed = Seeds.mix(seed, pool > 0 ? index % pool : index);
            int difficulty = levels.isEmpty() ? 0 : levels.get(Math.floorMod(Seeds.mix(taskSeed, 0xD1FF), levels.size()));
            TaskRequest request = new TaskRequest(Split.TRAIN, taskSeed, difficulty);
            ShiftStack stack = alpha > 0 && rnd.nextDouble() < alpha ? shifts.sample(rnd) : ShiftStack.NONE;
            Episode e = record(stack.apply(environment.create()), request, stack);
            if (e.success()) return e;
        }
    }

    /** Runs the oracle on one task and records every step. */
    public static Episode record(Env env, TaskRequest request, ShiftStack stack) {
        Start start = env.reset(request);
        Guide guide = env.guide();
        View view = View.start(start);
        List<Demo> steps = new ArrayList<>();
        Step last = null;
        while (true) {
            Action action = guide.next(last);
            steps.add(new Demo(view, action, env.task()));
            last = env.step(action);
            view = view.after(action, last);
            if (last.done()) return new Episode(steps, stack, last.outcome().success());
        }
    }
}
